/**
 * A sync's blocks checked ahead of their import, on the execution threads: before the importer
 * stores the first of them, it hands each chain's blocks over in runs of
 * {@link CHECKED_RUN_BLOCKS} (in the order they came, so the lower heights first), and while the
 * threads execute the runs, it stores those already checked, taking their payloads and writes
 * instead of executing them on its own thread. A run that goes on from the one before it, in this
 * import or in the one before, is checked on the scratch state that one left, so the threads never
 * wait for the node to store a block.
 *
 * A block whose check did not come back (its thread could not serve the run, or it is not what it
 * claims), or not while checks keep coming back ({@link CHECK_WAIT_MS}), is executed by the
 * importer itself, which refuses it if it is bad.
 */
import { equalBytes } from "../../chain/bytes.ts";
import type { ParentBlock } from "../../chain/header/types.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import type {
  CheckedForeignBlock,
  ForeignChecker,
  ForeignRunAnswer,
} from "../executor/contract-executor.ts";
import type { NodeChain } from "../node-chain.ts";
import type { ForeignBlock } from "./foreign-block.ts";

/**
 * The blocks of one chain handed to an execution thread at a time: the importer starts storing a
 * height once its runs on every chain are checked, so a short run lets it start early; each run is
 * a message each way.
 */
export const CHECKED_RUN_BLOCKS = 4;

/**
 * An import of fewer blocks than this is executed on the node's thread as it is stored: a thread's
 * round trip would delay the newest blocks of a peer (a sync that follows a peer's new heights),
 * and there is little to gain.
 */
export const CHECK_AHEAD_MIN_BLOCKS = 64;

/**
 * How long the importer waits for a block's check while no check at all comes back before it
 * executes that block and every block of the import still unchecked itself: a thread busy with
 * other work (`local` calls pass a sync's waiting runs) does not hold a catch-up up for long,
 * while one that answers run after run (slowly at first: its first block of each chain reads and
 * compiles the chain's modules) is waited for.
 */
export const CHECK_WAIT_MS = 500;

export class CheckedAhead {
  /** Per block (base64url hash) whose check was asked for: the check, or null (run it here). */
  private readonly answered = new Map<string, CheckedForeignBlock | null>();
  /** Per block whose check is under way: when its run's answer has come. */
  private readonly pending = new Map<string, Promise<void>>();
  /** Whether the importer gave up waiting ({@link CHECK_WAIT_MS}): the rest is its own. */
  private abandoned = false;
  /** When the last check came back (performance.now()), or the checks were asked for. */
  private lastAnswer = performance.now();

  /**
   * Hands over the runs of `blocks` that extend their chains' heads. `runTips` holds, per chain,
   * the last block of the last run handed over (across imports, kept by the importer): a run that
   * starts there goes on from the thread's scratch state.
   */
  constructor(
    checker: ForeignChecker,
    chains: readonly NodeChain[],
    blocks: readonly ForeignBlock[],
    private readonly runTips: Map<number, Uint8Array>,
  ) {
    const open = new Map<number, { parent: ParentBlock; blocks: ForeignBlock[] }>();
    const ended = new Set<number>();
    const handOver = (chainId: number) => {
      const run = open.get(chainId);
      if (run === undefined || run.blocks.length === 0) return;
      const tip = runTips.get(chainId);
      const continues = tip !== undefined && equalBytes(tip, run.parent.hash);
      const last = run.blocks.at(-1)!.header;
      runTips.set(chainId, last.hash);
      this.ask(checker, chains[chainId]!, run.parent, continues, run.blocks);
      open.set(chainId, { parent: last, blocks: [] });
    };
    for (const block of blocks) {
      const { chainId, parent } = block.header;
      const chain = chains[chainId];
      if (chain === undefined || ended.has(chainId)) continue;
      let run = open.get(chainId);
      if (run === undefined) {
        run = { parent: chain.head, blocks: [] };
        open.set(chainId, run);
      }
      const tipHash = run.blocks.at(-1)?.header.hash ?? run.parent.hash;
      // Blocks that do not extend the run are for the importer alone (a fork's, or a gap).
      if (!equalBytes(parent, tipHash)) {
        handOver(chainId);
        ended.add(chainId);
        continue;
      }
      run.blocks.push(block);
      if (run.blocks.length === CHECKED_RUN_BLOCKS) handOver(chainId);
    }
    for (const chainId of open.keys()) handOver(chainId);
  }

  /** Whether `block`'s check is under way. */
  isPending(block: ForeignBlock): boolean {
    return this.pending.has(encodeBase64Url(block.header.hash));
  }

  /**
   * Settles once `block`'s check is answered, or once no check has come back for
   * {@link CHECK_WAIT_MS}, when the checks still under way are given up (their blocks are the
   * importer's to execute).
   */
  waitFor(block: ForeignBlock): Promise<void> {
    const pending = this.pending.get(encodeBase64Url(block.header.hash));
    if (pending === undefined) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const giveUpWhenQuiet = () => {
        const quietMs = performance.now() - this.lastAnswer;
        if (quietMs < CHECK_WAIT_MS) {
          timer = setTimeout(giveUpWhenQuiet, CHECK_WAIT_MS - quietMs);
          return;
        }
        this.abandoned = true;
        this.pending.clear();
        resolve();
      };
      giveUpWhenQuiet();
      void pending.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** `block`'s check (once answered), or null when there is none to take: run it here. */
  take(block: ForeignBlock): CheckedForeignBlock | null {
    return this.answered.get(encodeBase64Url(block.header.hash)) ?? null;
  }

  private ask(
    checker: ForeignChecker,
    chain: NodeChain,
    parent: ParentBlock,
    continues: boolean,
    blocks: readonly ForeignBlock[],
  ): void {
    const hashes = blocks.map((b) => encodeBase64Url(b.header.hash));
    const answered = (answer: ForeignRunAnswer) => {
      this.lastAnswer = performance.now();
      const checked = answer.kind === "checked" ? answer.blocks : [];
      // A short run's thread has no scratch state to go on from: the next run starts anew.
      if (checked.length < blocks.length) this.runTips.delete(chain.chainId);
      if (this.abandoned) return;
      hashes.forEach((hash, i) => {
        this.answered.set(hash, checked[i] ?? null);
        this.pending.delete(hash);
      });
    };
    const done = checker
      .checkForeign({
        chainId: chain.chainId,
        parent,
        continues,
        blocks,
        entityKeys: chain.entityKeys,
      })
      .then(answered, () => answered({ kind: "unserved" }));
    for (const hash of hashes) this.pending.set(hash, done);
  }
}
