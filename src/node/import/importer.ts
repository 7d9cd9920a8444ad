/**
 * The one way blocks enter the node and heads move. Every block goes through here, one call at a
 * time (JavaScript's one thread makes each call whole; a sync's import is whole transaction by
 * transaction, and other calls may come between two of its transactions):
 *
 * - blocks this node made (`storeProduced`: on-demand, interval and proof-of-work mining, the
 *   development controls' `mine`), already executed on their chains' states: their headers
 *   validated, then stored together, the states committed, the heads moved, the mempools cleared
 *   of their commands, announced (their outputs are the execution's, so there is nothing to
 *   compare). Nothing is stored while writes fail (storage-guard.ts), and a failure of the disk
 *   aborts every block of the call, to be thrown as a refusal;
 * - blocks made elsewhere (`importForeign`, or `importForeignYielding` for a sync, which lets the
 *   event loop run between its chain-database transactions): validated, checked and executed on
 *   their fork before anything is stored (block-import.ts), then adopted when heavier;
 * - the genesis blocks (genesis-blocks.ts, before the chains exist);
 * - a change of branch (`adoptCut`, `moveTo`): after an import, on start (the blocks a crash or
 *   a missing state file left unexecuted), after a failed write (`recoverStates`), and for a
 *   development revert — each chain's state
 *   rewound to the fork point and the new branch replayed, with one rule for what the mempool
 *   keeps. The importer is the one writer of the cut (`cut` and `reorg` events).
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { equalBytes } from "../../chain/bytes.ts";
import { type Cut, cutWeight } from "../../chain/cut/cut.ts";
import { type ChainDatabase, isBraided } from "../../chain/db/index.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import type { ChainwebVersion } from "../../chain/version/version.ts";
import type { ParsedCommand } from "../../command/index.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import { StorageUnavailable } from "../../pact/db/storage-failure.ts";
import type { NodeEvents } from "../events.ts";
import type { WritesOfChecked } from "../executor/chain-state.ts";
import type { CheckedForeignBlock, ForeignChecker } from "../executor/contract-executor.ts";
import type { NodeLogger } from "../logger.ts";
import { cutOf, type NodeChain, type PreparedBlock, type StoredBlock } from "../node-chain.ts";
import type { StorageGuard } from "../storage-guard.ts";
import { checkHeader, checkPayload, type HeaderFinder, importBlocks } from "./block-import.ts";
import { type BlockOrigin, logStoredBlock } from "./block-log.ts";
import { CHECK_AHEAD_MIN_BLOCKS, CheckedAhead } from "./checked-ahead.ts";
import type { ForeignBlock } from "./foreign-block.ts";

export interface ImporterParts {
  readonly version: ChainwebVersion;
  /** Blocks from elsewhere must carry their proof of work (`requirePow`). */
  readonly powRequired: boolean;
  readonly chainDb: ChainDatabase;
  readonly chains: readonly NodeChain[];
  readonly log: NodeLogger;
  readonly events: NodeEvents;
  /** Whether writes work; told of every failed write. */
  readonly storage: StorageGuard;
  /** The node's clock (clock.ts, in µs): blocks from elsewhere created after it are refused. */
  readonly nowMicros: () => number;
  /** Who checks a sync's blocks ahead of their import (the execution threads), if anyone. */
  readonly checker?: ForeignChecker | null;
}

/**
 * What a chain's mempool keeps when its branch changes: the commands of the blocks that left the
 * branch go back (`return-dropped`), or only the commands in `pending` stay or come back (a
 * development revert to a snapshot). A command already on the new branch never stays.
 */
export type MempoolRule =
  | { readonly kind: "return-dropped" }
  | { readonly kind: "keep-only"; readonly pending: ReadonlySet<string> };

const RETURN_DROPPED: MempoolRule = { kind: "return-dropped" };

/**
 * How long blocks from elsewhere are imported into the first chain-database transaction of an
 * import before it is committed and they are announced; each next transaction of the same import
 * may take twice as long as the one before. The first blocks of a height a peer just made are
 * told of within about this, while a catch-up of thousands of blocks pays a commit only every
 * few dozen (a commit is about a third of an imported block's cost).
 */
export const ANNOUNCE_WITHIN_MS = 2;

/**
 * The longest one transaction of an import may grow to (its windows double from
 * {@link ANNOUNCE_WITHIN_MS}). Also bounds how late a catch-up announces a block and, since a
 * sync's import lets the event loop run between its transactions, about how long the API waits
 * for one during a catch-up.
 */
export const ANNOUNCE_WINDOW_LIMIT_MS = 32;

/**
 * An import that starts within this of the end of the one before continues its windows instead
 * of starting again at {@link ANNOUNCE_WITHIN_MS}: a sync hands its blocks over in batches, one
 * turn of the event loop apart, and restarting at 2 ms cut each batch into four small
 * transactions (measured: a block's pages written twice as often, its cost ~8 % higher).
 */
export const IMPORT_CONTINUES_WITHIN_MS = 20;

export class BlockImporter {
  /** The window of the next transaction of blocks from elsewhere, if the next import continues. */
  private window = ANNOUNCE_WITHIN_MS;
  /** When the last import of blocks from elsewhere ended (performance.now()). */
  private lastImportEnded = Number.NEGATIVE_INFINITY;
  /** The yielding imports, one after another: settles when the last one asked for has ended. */
  private yieldingImports: Promise<void> = Promise.resolve();
  /** Per chain, the last block of the last run of a sync's blocks handed over to be checked. */
  private readonly runTips = new Map<number, Uint8Array>();
  /** How many blocks from elsewhere were stored as an execution thread checked them. */
  checkedAhead = 0;

  constructor(private readonly parts: ImporterParts) {}

  /**
   * Validates the headers of blocks this node executed (each still open on its chain's state),
   * stores them in one chain database transaction, then commits their states and announces
   * them. When a header is invalid or storing fails, every one is aborted and nothing moved.
   * `origin` says whether their nonces were searched (`solved`: proof-of-work mining).
   */
  storeProduced(
    prepared: readonly {
      readonly chain: NodeChain;
      readonly block: PreparedBlock;
    }[],
    origin: Exclude<BlockOrigin, "peer"> = "mined",
  ): StoredBlock[] {
    try {
      this.parts.storage.check();
      for (const { block } of prepared) {
        checkHeader(this.parts.version, block.header, this.nearHead, {
          hashChecked: true,
        });
      }
      this.parts.chainDb.insertBlocks(
        prepared.map(({ chain, block }) => ({
          header: block.header,
          payload: block.payload,
          index: block.index,
          // Made on the chain's head: its link is not looked up again.
          parent: chain.head,
        })),
      );
    } catch (e) {
      for (const { chain } of prepared) chain.abortPrepared();
      throw this.parts.storage.refusal(e);
    }
    const stored = prepared.map(({ chain, block }) => {
      const done = chain.commitPrepared(block);
      chain.mempool.remove(done.requestKeys);
      this.announce(done, origin);
      this.leaveOut(chain, done.rejected);
      return done;
    });
    this.parts.events.emit("cut");
    return stored;
  }

  /**
   * Imports blocks made elsewhere, parents first; throws an `ImportError` for the first that is
   * not what it claims. The blocks at the start that extend their chains' heads (a peer's blocks
   * on top of this node's: sync's usual case) are each executed once, on the chain's own state,
   * and stored and adopted one by one, so those before a bad one stay (each was valid); the rest
   * (forks) are checked on their forks' states and stored all or nothing, then adopted when
   * heavier.
   */
  importForeign(blocks: readonly ForeignBlock[]): void {
    const steps = this.importSteps(blocks, null);
    while (!steps.next().done);
  }

  /**
   * `importForeign`, letting the event loop run between its chain-database transactions (each
   * at most {@link ANNOUNCE_WINDOW_LIMIT_MS} of work, committed and announced before the turn
   * is given up), so the API answers while a sync imports thousands of blocks. Such imports run
   * one after another; a block made here or an `importForeign` may come between two
   * transactions, as between two of a sync's batches (each transaction checks the heads anew).
   * With execution threads, the blocks of a long import are checked there ahead of it
   * (checked-ahead.ts), and the import waits, between two transactions, for a block's check.
   */
  importForeignYielding(blocks: readonly ForeignBlock[]): Promise<void> {
    const run = this.yieldingImports.then(async () => {
      const { checker, chains } = this.parts;
      const ahead =
        checker != null && blocks.length >= CHECK_AHEAD_MIN_BLOCKS
          ? new CheckedAhead(checker, chains, blocks, this.runTips)
          : null;
      const steps = this.importSteps(blocks, ahead);
      for (let step = steps.next(); !step.done; step = steps.next()) {
        await (step.value ?? nextTurn());
      }
    });
    this.yieldingImports = run.catch(() => undefined);
    return run;
  }

  /**
   * An import of blocks from elsewhere (`importForeign`), paused after each transaction, and
   * before a block whose check `ahead` has not answered yet (what it yields then settles when it
   * has).
   */
  private *importSteps(
    blocks: readonly ForeignBlock[],
    ahead: CheckedAhead | null,
  ): Generator<Promise<void> | undefined, void> {
    // Read once: every block of the call was made before it began.
    const now = this.parts.nowMicros();
    const { extended, failure } = yield* this.extendHeads(blocks, now, ahead);
    if (extended > 0) {
      // The heads extended are braided, but another stored branch may make a heavier cut.
      this.adoptHeavier();
      this.parts.events.emit("cut");
    }
    if (failure !== undefined) throw failure.error;
    if (extended === blocks.length) return;
    const { version, chainDb, chains, storage, powRequired } = this.parts;
    const rest = blocks.slice(extended);
    const { stored, writesOf } = storage.write(() =>
      importBlocks({ version, chainDb, chains, powRequired, now }, rest),
    );
    this.adoptHeavier(undefined, writesOf);
    // Announced after the states moved, so a `listen` woken by them finds its result.
    for (const { block, index } of stored) {
      const requestKeys = index.map((entry) => encodeBase64Url(entry.requestKey));
      this.announce({ ...block, requestKeys, rejected: [] }, "peer");
    }
  }

  /**
   * Imports the blocks at the start of `blocks` that extend their chain's head with adjacent
   * parents on the current cut's branches; how many. Each is validated, executed once on the
   * chain's state and checked, stored and committed before the next. The chain database keeps
   * them in transactions of {@link ANNOUNCE_WITHIN_MS} of work, then twice that, and so on up to
   * {@link ANNOUNCE_WINDOW_LIMIT_MS}, continued by an import that follows at once
   * ({@link IMPORT_CONTINUES_WITHIN_MS}: a sync's next batch), each committed before the blocks
   * in it are announced, so no result is told before it is stored, and each before the import
   * pauses (yields, between two transactions) or returns, so no flush of the contract states
   * (they are flushed on a timer) can come before the blocks they hold are stored. The first bad
   * block's error is returned, to be thrown once the ones before it are committed and announced.
   */
  private *extendHeads(
    blocks: readonly ForeignBlock[],
    now: number,
    ahead: CheckedAhead | null,
  ): Generator<
    Promise<void> | undefined,
    {
      readonly extended: number;
      readonly failure?: { readonly error: unknown };
    }
  > {
    let failure: { readonly error: unknown } | undefined;
    let extended = 0;
    let more = true;
    let window =
      performance.now() - this.lastImportEnded <= IMPORT_CONTINUES_WITHIN_MS
        ? this.window
        : ANNOUNCE_WITHIN_MS;
    while (more && failure === undefined && extended < blocks.length) {
      // Between two transactions: the blocks before are committed and announced.
      if (extended > 0) yield;
      const next = blocks[extended]!;
      if (ahead?.isPending(next) === true) {
        yield ahead.waitFor(next);
        continue;
      }
      const started = performance.now();
      const done: StoredBlock[] = [];
      // A failure of the disk in the transaction or at its commit is the storage guard's to
      // handle (it reloads the states and rewinds them to the blocks the database holds).
      this.parts.storage.write(() =>
        this.parts.chainDb.inOneTransaction(() => {
          try {
            while (extended + done.length < blocks.length) {
              const next = blocks[extended + done.length]!;
              // Its check is still under way: commit what came before, then wait for it.
              if (done.length > 0 && ahead?.isPending(next) === true) break;
              const stored = this.extendHead(next, now, ahead?.take(next) ?? null);
              if (stored === null) {
                more = false;
                break;
              }
              done.push(stored);
              if (performance.now() - started >= window) break;
            }
          } catch (error) {
            // The disk failed: SQLite may have thrown the whole transaction away, so none of it
            // is committed (the storage guard gives the states the blocks they lost back).
            if (error instanceof StorageUnavailable) throw error;
            failure = { error };
          }
        }),
      );
      for (const block of done) this.announce(block, "peer");
      extended += done.length;
      window = Math.min(window * 2, ANNOUNCE_WINDOW_LIMIT_MS);
    }
    this.window = window;
    this.lastImportEnded = performance.now();
    return failure === undefined ? { extended } : { extended, failure };
  }

  /**
   * Imports one block if it extends its chain's head (extendHeads), taking its check from an
   * execution thread when there is one; null if it does not extend the head.
   */
  private extendHead(
    block: ForeignBlock,
    now: number,
    checked: CheckedForeignBlock | null,
  ): StoredBlock | null {
    const { version, chainDb, chains, storage, powRequired } = this.parts;
    const { header } = block;
    const chain = chains[header.chainId];
    if (chain === undefined || !this.extendsCut(chain, block)) return null;
    if (chainDb.has(header.hash)) return null;
    storage.check();
    // A checked block's hash was computed by its check.
    checkHeader(version, header, this.nearHead, {
      powRequired,
      now,
      hashChecked: checked !== null,
    });
    const parent = chain.head;
    // A block its check took needs no payload check: the payload made of its transactions and
    // the outputs the check gave hashes to the header's payload hash.
    const taken = checked === null ? null : chain.prepareChecked(block, checked);
    if (taken !== null) this.checkedAhead++;
    else checkPayload(block);
    const prepared = taken ?? chain.prepareForeign(block);
    try {
      chainDb.insertBlocks([{ header, payload: prepared.payload, index: prepared.index, parent }]);
    } catch (e) {
      chain.abortPrepared();
      throw storage.refusal(e);
    }
    const done = chain.commitPrepared(prepared);
    chain.mempool.remove(done.requestKeys);
    return done;
  }

  /**
   * Whether the block's parent is its chain's head and its adjacent parents are on the cut. In a
   * sync, heights in order, an adjacent parent is its chain's head or the head's parent, known
   * without asking the chain database (three ancestry reads were a tenth of an imported block).
   */
  private extendsCut(chain: NodeChain, { header }: ForeignBlock): boolean {
    if (!equalBytes(header.parent, chain.head.hash)) return false;
    for (const [chainId, hash] of header.adjacents) {
      const adjacent = this.parts.chains[chainId];
      if (adjacent === undefined) return false;
      if (adjacent.headOrParent(hash) !== undefined) continue;
      if (!this.parts.chainDb.isAncestor(hash, adjacent.head.hash)) return false;
    }
    return true;
  }

  /**
   * After a failed write (the storage guard's recovery): each chain's state reloaded from its
   * file and its head moved back to the block the state holds, then every chain brought to the
   * chain database's cut again, the stored blocks the states lost replayed.
   */
  recoverStates(): void {
    for (const chain of this.parts.chains) chain.recoverState();
    this.adoptCut();
  }

  /**
   * Moves every chain to its head in the chain database's cut (the heaviest branch), the
   * commands of blocks that left a branch back in its mempool. `onReplayed` is told of each block
   * replayed (start-up's progress; the moves are logged otherwise).
   */
  adoptCut(onReplayed?: (chain: NodeChain) => void): void {
    this.moveTo(this.parts.chainDb.cut(), () => RETURN_DROPPED, onReplayed);
  }

  /**
   * After blocks from elsewhere: moves to the chain database's cut, or to `offered` (a peer's cut,
   * its blocks stored; ignored unless braided), when it is heavier than the node's cut — never
   * to a lighter one, and not to one as heavy (Chainweb's nodes keep their cut until a heavier
   * one comes). The database's cut is the heaviest heads stepped back until braided, which can
   * weigh less than the cut the node has: two miners whose newest blocks tie would otherwise
   * each fall back below both, again and again.
   */
  adoptHeavier(offered?: Cut, writesOf?: WritesOfChecked): void {
    const current = cutOf(this.parts.chains);
    let best = current;
    const candidates = [this.parts.chainDb.cut(), ...(offered === undefined ? [] : [offered])];
    for (const candidate of candidates) {
      if (candidate.size !== current.size || !isBraided(candidate.values())) continue;
      if (cutWeight(candidate) > cutWeight(best)) best = candidate;
    }
    if (best !== current) this.moveTo(best, () => RETURN_DROPPED, undefined, writesOf);
  }

  /**
   * A peer's cut, given by its heads' hashes: adopted when all its blocks are stored, it is
   * braided and it is heavier than the node's cut (`adoptHeavier`).
   */
  offerCut(hashes: ReadonlyMap<number, Uint8Array>): void {
    const heads = new Map<number, BlockHeader>();
    for (const [chainId, hash] of hashes) {
      const header = this.parts.chainDb.header(hash);
      if (header === undefined || header.chainId !== chainId) return;
      heads.set(chainId, header);
    }
    this.adoptHeavier(heads);
  }

  /**
   * Moves every chain to its head in `heads` (stored blocks): its state rewound to the fork
   * point and the branch to the head replayed (a `reorg` event when the head does not descend
   * from the old one), its mempool as `ruleOf` says; then announces the new cut. A block checked
   * on a fork's overlay in the same import (`writesOf`) is not executed again: the state takes
   * what it wrote there.
   */
  moveTo(
    heads: Cut,
    ruleOf: (chain: NodeChain) => MempoolRule,
    onReplayed?: (chain: NodeChain) => void,
    writesOf?: WritesOfChecked,
  ): void {
    const { chainDb, chains, events, log } = this.parts;
    let moved = false;
    for (const chain of chains) {
      const head = heads.get(chain.chainId)!;
      if (equalBytes(head.hash, chain.head.hash)) continue;
      moved = true;
      const from = chain.head;
      const { dropped, added } = chain.syncTo(head, () => onReplayed?.(chain), writesOf);
      // The new branch's commands are done: none stays pending.
      chain.mempool.remove(added);
      const reorg = !chainDb.isAncestor(from.hash, head.hash);
      if (reorg) events.emit("reorg", chain.chainId, from, head);
      const back = keptInMempool(chain, dropped, ruleOf(chain));
      if (back > 0) events.emit("pending", chain.chainId);
      if (onReplayed === undefined) {
        // A branch change is news; a chain extended by blocks from elsewhere is the usual.
        (reorg || back > 0 ? log.info : log.debug)(
          `chain ${chain.chainId}: now at ${encodeBase64Url(head.hash).slice(0, 12)} (height ${head.height})${back > 0 ? `, ${back} commands back in the mempool` : ""}`,
        );
      }
    }
    if (moved) events.emit("cut");
  }

  /**
   * A produced block's parent and adjacent parents are its chains' heads or their parents (kept
   * in memory by each chain); anything else is looked up in the chain database.
   */
  private readonly nearHead: HeaderFinder = (chainId, hash) =>
    this.parts.chains[chainId]?.headOrParent(hash) ?? this.parts.chainDb.header(hash);

  /**
   * Drops from the chain's mempool commands a block being made left out for good (their gas
   * could not be bought, or they ran past the time limit), each logged with the reason.
   */
  leaveOut(chain: NodeChain, rejected: StoredBlock["rejected"]): void {
    chain.mempool.remove(rejected.map((r) => r.command.hash));
    for (const r of rejected) {
      this.parts.log.warn(`chain ${chain.chainId}: left out ${r.command.hash}: ${r.reason}`);
    }
  }

  private announce(block: StoredBlock, origin: BlockOrigin): void {
    logStoredBlock(this.parts.log, block, origin);
    this.parts.events.emit("block", block.header.chainId, block);
  }
}

/** Applies `rule` to the chain's mempool after its branch changed; how many commands came back. */
function keptInMempool(
  chain: NodeChain,
  dropped: readonly ParsedCommand[],
  rule: MempoolRule,
): number {
  const back = dropped.filter(
    (c) =>
      (rule.kind === "return-dropped" || rule.pending.has(c.hash)) && !chain.isOnChain(c.hashBytes),
  );
  if (rule.kind === "keep-only") {
    const pending = rule.pending;
    chain.mempool.remove(
      chain.mempool
        .commands()
        .map((c) => c.hash)
        .filter((hash) => !pending.has(hash)),
    );
  }
  chain.mempool.add(back);
  return back.length;
}
