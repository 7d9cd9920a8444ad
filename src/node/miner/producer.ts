/**
 * Making blocks on the braided chains. A block at height h+1 on chain c names the blocks at
 * height h of c's adjacent chains, so before chain c can grow, its neighbours must have reached
 * its height (`ensureHeight`, recursively: a neighbour's neighbours must be at most one block
 * behind it). Every mining mode goes through here:
 *
 * - `mine(c)` makes one block on chain c now with what its mempool holds; only the neighbours
 *   it needs are caught up first; `mineBeside(c)` does the same with the commands executed by
 *   the node's executors (the request path of on-demand mining: on an execution thread, while
 *   this thread goes on), their writes applied to the chain's state when they come back;
 * - `catchUpStep(cs)` makes a few of the blocks that chains cs wait for, so that on-demand mining
 *   can let commands gather while their chain's neighbours catch up;
 * - `level()` catches every chain up to the highest one, one block per event-loop turn, so the
 *   next request on any chain finds its neighbours ready (off the request's critical path);
 * - `mineRound()` advances every chain by one block (interval mode), the blocks of chains with
 *   commands made as `mineBeside` makes them; `mineAll()` does the same on this thread (tests).
 *
 * The blocks made because another chain needs them (its neighbours caught up, levelling) take only
 * the commands whose gas limits keep them small (`SMALL_COMMAND_GAS`): on this thread a command
 * may run only `commandTimeLimit`, and one that may do more waits for its own chain's block,
 * which the executors make with chainweb-node's limits.
 *
 * Block times: a block's creation time is the clock's, but always after its parent's and its
 * adjacent parents'. Commands run with their parent block's time, and Chainweb refuses a command
 * created more than 95 s after it: when the head is that old (an idle on-demand chain), an empty
 * block with the current time is made first.
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import { equalBytes } from "../../chain/bytes.ts";
import { adjacentChains } from "../../chain/graph/graph.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import { type ChainwebVersion, graphAt } from "../../chain/version/version.ts";
import type { ParsedCommand } from "../../command/index.ts";
import { transactionText } from "../executor/block/block-executor.ts";
import { commandGasLimit } from "../executor/block/gas-fees.ts";
import {
  type BlockAnswer,
  type BlockRequest,
  type ExecutedBlockData,
  failureError,
} from "../executor/contract-executor.ts";
import { SMALL_COMMAND_GAS } from "../executor/node-executors.ts";
import { blockTimeProblem } from "../mempool/admission.ts";
import type { NodeChain, PreparedBlock, StoredBlock } from "../node-chain.ts";

/**
 * The most catch-up blocks made in one event-loop turn (stored in one transaction): small
 * enough that a request arriving meanwhile waits about a millisecond, large enough to share
 * the chain database's commit.
 */
export const LEVEL_BLOCKS_PER_TURN = 4;

/** A block waiting for its nonce. */
export interface PowWork {
  readonly chainId: number;
  readonly parent: BlockHeader;
  /**
   * The block's commands: those it holds, made again on this thread when it is solved; or, with
   * `executed`, those offered to the executor, whose writes and outputs the block takes.
   */
  readonly commands: readonly ParsedCommand[];
  readonly executed?: ExecutedBlockData;
  readonly adjacentParents: ReadonlyMap<number, BlockHeader>;
  readonly creationTime: number;
  /** The header with nonce 0. */
  readonly header: BlockHeader;
}

export interface ProducerOptions {
  readonly version: ChainwebVersion;
  readonly chains: readonly NodeChain[];
  readonly blockGasLimit: number;
  /** The clock, in microseconds since the UNIX epoch. */
  readonly nowMicros: () => number;
  /**
   * Stores blocks executed on their chains' states (the importer's `storeProduced`): together,
   * then committed and announced (`solved`: with the nonce a proof-of-work search found);
   * aborted when storing fails.
   */
  readonly store: (
    prepared: readonly {
      readonly chain: NodeChain;
      readonly block: PreparedBlock;
    }[],
    origin?: "solved",
  ) => StoredBlock[];
  /** Told of commands a proof-of-work candidate left out for good (the importer's `leaveOut`). */
  readonly leaveOut: (chain: NodeChain, rejected: PreparedBlock["rejected"]) => void;
  /** Told of a failure of background work (levelling), which has no caller to throw to. */
  readonly onError: (error: unknown) => void;
  /** Executes a new block's commands (the node's executors: node-executors.ts). */
  readonly execute: (request: Omit<BlockRequest, "limits">) => Promise<BlockAnswer>;
}

export class BlockProducer {
  private levelling = false;
  private closed = false;
  /** Chains whose next block's commands an executor runs now (`mineBeside`). */
  private readonly executing = new Set<number>();

  constructor(private readonly options: ProducerOptions) {}

  /** Makes one block on `chainId` with its pending commands (after any blocks it needs first). */
  mine(chainId: number): StoredBlock {
    return this.makeBlock(chainId, this.commandsForNextBlock(chainId));
  }

  /**
   * The pending commands the next block of `chainId` takes, an empty block with the current
   * time made first when one was created too long after the head's time (`selectFor`).
   */
  private commandsForNextBlock(chainId: number): ParsedCommand[] {
    const chain = this.options.chains[chainId]!;
    const now = this.options.nowMicros();
    const pending = this.selectFor(chain, "all", now);
    if (!pending.needsFreshParent) return pending.commands;
    this.makeBlock(chainId, []);
    return this.selectFor(chain, "all", now).commands;
  }

  /**
   * Makes one block on `chainId` with its pending commands as {@link mine} does, their execution
   * handed to the node's executors, this thread free meanwhile. Resolves with the block stored,
   * or null when the chain moved on while the commands ran (another block came first: theirs
   * stay in the mempool for the next one). At most one at a time per chain.
   */
  async mineBeside(chainId: number): Promise<StoredBlock | null> {
    if (this.executing.has(chainId)) return null;
    const chain = this.options.chains[chainId]!;
    const commands = this.commandsForNextBlock(chainId);
    if (commands.length === 0) return this.makeBlock(chainId, []);
    const { adjacentParents, creationTime } = this.blockInputs(chainId, true);
    const parent = chain.head;
    const answer = await this.executeBeside(chainId, parent, commands);
    // Closing answers the work under way, `failed`: nothing to store, nothing to report.
    if (this.closed || answer.kind === "unserved") return null;
    if (answer.kind === "failed") throw failureError(answer);
    if (!this.stillBranches(chain, parent, adjacentParents)) return null;
    const block = chain.prepareExecuted({
      parent,
      commands,
      executed: answer.block,
      adjacentParents,
      creationTime,
    });
    return this.options.store([{ chain, block }])[0]!;
  }

  /** Runs the next block's commands on an executor; the chain counts as executing meanwhile. */
  private async executeBeside(
    chainId: number,
    parent: BlockHeader,
    commands: readonly ParsedCommand[],
  ): Promise<BlockAnswer> {
    this.executing.add(chainId);
    try {
      return await this.options.execute({
        chainId,
        parent,
        transactions: commands.map(transactionText),
        largestGasLimit: Math.max(
          ...commands.map((c) => commandGasLimit(c.payload.meta, this.options.blockGasLimit)),
        ),
      });
    } finally {
      this.executing.delete(chainId);
    }
  }

  /**
   * A block on `chainId` at `height` at least, its own commands executed as {@link mineBeside}
   * executes them (a development control's `mine`): made again when the chain moved on meanwhile.
   */
  async mineTo(chainId: number, height: number): Promise<void> {
    const chain = this.options.chains[chainId]!;
    while (!this.closed && chain.head.height < height) {
      if ((await this.mineBeside(chainId)) === null) await nextTurn();
    }
  }

  /**
   * One block on every chain (interval mode): the chains holding commands get theirs through the
   * executors ({@link mineBeside}, side by side), then every chain is brought to the new height.
   */
  async mineRound(): Promise<void> {
    const { chains } = this.options;
    const target = Math.max(...chains.map((c) => c.head.height)) + 1;
    const busy = chains.filter((c) => c.mempool.size > 0 && c.head.height < target);
    await Promise.all(busy.map((c) => this.mineBeside(c.chainId)));
    // The others' blocks are made for the braid's sake: a large command that came meanwhile
    // waits for the next round's block of its chain.
    while (!this.closed && this.levelStep(target, "small"));
  }

  /** One block on every chain, one height at a time, lowest first, all on this thread. */
  mineAll(): void {
    const target = Math.max(...this.options.chains.map((c) => c.head.height)) + 1;
    while (this.levelStep(target, "all"));
  }

  /**
   * Catches every chain up to the highest in the background, a few blocks per event-loop turn:
   * chains at the lowest height get their next block together, stored in one chain database
   * transaction (their neighbours are never behind them, so they do not wait on each other).
   * Calls while a levelling is under way join it.
   */
  level(): void {
    if (this.levelling || this.closed) return;
    this.levelling = true;
    const step = () => {
      let more = false;
      try {
        const top = Math.max(...this.options.chains.map((c) => c.head.height));
        more = !this.closed && this.levelStep(top, "small");
      } catch (e) {
        this.options.onError(e);
      }
      if (!more) {
        this.levelling = false;
        return;
      }
      setImmediate(step);
    };
    setImmediate(step);
  }

  /**
   * The next block of chains at the lowest height (up to {@link LEVEL_BLOCKS_PER_TURN}), stored
   * together, with the commands of `scope`; false (and nothing made) when every chain has reached
   * `target`.
   */
  private levelStep(target: number, scope: CommandScope): boolean {
    const { chains } = this.options;
    const low = Math.min(...chains.map((c) => c.head.height));
    if (low >= target) return false;
    // A chain whose block an executor is making is left to it; levelling resumes after.
    const group = chains.filter((c) => c.head.height === low && !this.executing.has(c.chainId));
    if (group.length === 0) return false;
    // Those a higher neighbour waits for first: after a block on a busy chain, its neighbours
    // are ready for its next one after the first turn, not the last.
    const waitedFor = (c: NodeChain) => (this.hasHigherNeighbour(c.chainId) ? 0 : 1);
    group.sort((a, b) => waitedFor(a) - waitedFor(b));
    this.makeLayer(group, scope);
    return true;
  }

  /** Whether a chain adjacent to `chainId`'s next block is already above its head. */
  private hasHigherNeighbour(chainId: number): boolean {
    const { chains, version } = this.options;
    const { height } = chains[chainId]!.head;
    return adjacentChains(graphAt(version, height + 1), chainId).some(
      (n) => chains[n]!.head.height > height,
    );
  }

  /** Whether the next block of `chainId` can be made now: no adjacent chain is behind it. */
  isReady(chainId: number): boolean {
    const { chains, version } = this.options;
    const { height } = chains[chainId]!.head;
    return adjacentChains(graphAt(version, height + 1), chainId).every(
      (n) => chains[n]!.head.height >= height,
    );
  }

  /**
   * One turn of catching up the chains that the next blocks of `chainIds` wait for: up to
   * {@link LEVEL_BLOCKS_PER_TURN} of them, lowest first, stored together. Commands that arrive
   * meanwhile join the waiting chains' blocks, so a busy chain mines more commands per block
   * instead of paying for a catch-up per command.
   */
  catchUpStep(chainIds: readonly number[]): boolean {
    const { chains } = this.options;
    const required = this.requiredHeights(chainIds);
    const behind = chains.filter((c) => c.head.height < (required.get(c.chainId) ?? -1));
    // The lowest chain behind is always ready: its neighbours are required to be no lower.
    behind.sort((a, b) => a.head.height - b.head.height);
    const group = behind.filter((c) => this.isReady(c.chainId) && !this.executing.has(c.chainId));
    this.makeLayer(group, "small");
    return group.length > 0;
  }

  /**
   * The heights each chain must reach before the next blocks of `chainIds` can be made: their
   * neighbours their height, the neighbours' neighbours one less, and so on.
   */
  private requiredHeights(chainIds: readonly number[]): Map<number, number> {
    const { chains, version } = this.options;
    const required = new Map<number, number>();
    const queue: [number, number][] = [];
    const need = (chainId: number, height: number) => {
      if (height <= chains[chainId]!.head.height || height <= (required.get(chainId) ?? -1)) return;
      required.set(chainId, height);
      queue.push([chainId, height]);
    };
    for (const chainId of chainIds) {
      const { height } = chains[chainId]!.head;
      for (const n of adjacentChains(graphAt(version, height + 1), chainId)) need(n, height);
    }
    while (queue.length > 0) {
      const [chainId, height] = queue.pop()!;
      for (const n of adjacentChains(graphAt(version, height), chainId)) need(n, height - 1);
    }
    return required;
  }

  /**
   * The next block of each of `group` (up to {@link LEVEL_BLOCKS_PER_TURN}, each ready: no
   * neighbour behind it) with the pending commands of `scope`, stored in one chain database
   * transaction.
   */
  private makeLayer(group: readonly NodeChain[], scope: CommandScope): void {
    if (group.length === 0) return;
    const prepared: { chain: NodeChain; block: PreparedBlock }[] = [];
    try {
      for (const chain of group.slice(0, LEVEL_BLOCKS_PER_TURN)) {
        const { adjacentParents, creationTime } = this.blockInputs(chain.chainId, false);
        const { commands } = this.selectFor(chain, scope);
        prepared.push({
          chain,
          block: chain.prepareBlock(commands, adjacentParents, creationTime),
        });
      }
    } catch (e) {
      for (const { chain } of prepared) chain.abortPrepared();
      throw e;
    }
    this.options.store(prepared);
  }

  close(): void {
    this.closed = true;
  }

  /**
   * Whether `parent` is still the chain's head and each adjacent parent still on its chain's
   * branch: a block made on them would still extend the cut.
   */
  private stillBranches(
    chain: NodeChain,
    parent: BlockHeader,
    adjacentParents: ReadonlyMap<number, BlockHeader>,
  ): boolean {
    if (!equalBytes(chain.head.hash, parent.hash)) return false;
    for (const [chainId, adjacent] of adjacentParents) {
      const onBranch = this.options.chains[chainId]!.headerAt(adjacent.height);
      if (onBranch === undefined || !equalBytes(onBranch.hash, adjacent.hash)) return false;
    }
    return true;
  }

  /**
   * Brings `chainId` to at least `height`, its neighbours first (with their small commands only),
   * its blocks taking the pending commands of `scope`.
   */
  ensureHeight(chainId: number, height: number, scope: CommandScope = "all"): void {
    const chain = this.options.chains[chainId]!;
    while (chain.head.height < height) {
      this.makeBlock(chainId, this.selectFor(chain, scope).commands);
    }
  }

  /** Makes a block with `commands` on top of the chain's head, neighbours caught up first. */
  private makeBlock(chainId: number, commands: readonly ParsedCommand[]): StoredBlock {
    const chain = this.options.chains[chainId]!;
    const { adjacentParents, creationTime } = this.blockInputs(chainId, true);
    const block = chain.prepareBlock(commands, adjacentParents, creationTime);
    return this.options.store([{ chain, block }])[0]!;
  }

  /** How many commands wait in the chain's mempool. */
  pending(chainId: number): number {
    return this.options.chains[chainId]!.mempool.size;
  }

  /**
   * Work for a proof-of-work miner: the header of the next block of the `preferred` chain when
   * its neighbours are not behind it, else of the lowest chain (whose neighbours never are), with
   * nonce 0, and what it takes to make it again. Its commands run where on-demand mining runs
   * them (`mineBeside`: on an execution thread, under chainweb-node's limit), and the solved
   * block takes what they wrote there instead of running them again.
   */
  async nextWork(preferred?: number): Promise<PowWork> {
    const { chains } = this.options;
    const wanted = preferred === undefined ? undefined : chains[preferred];
    const ready = wanted !== undefined && this.isReady(wanted.chainId);
    const chain = ready ? wanted : chains.reduce((a, b) => (b.head.height < a.head.height ? b : a));
    const { chainId } = chain;
    const { adjacentParents, creationTime } = this.blockInputs(chainId, false);
    const parent = chain.head;
    const commands = this.selectFor(chain, "all").commands;
    const work = { chainId, parent, adjacentParents, creationTime };
    const answer =
      commands.length === 0 || this.executing.has(chainId)
        ? null
        : await this.executeBeside(chainId, parent, commands);
    if (answer === null || answer.kind === "unserved") {
      return { ...work, ...this.candidateHere(chain, commands, adjacentParents, creationTime) };
    }
    if (answer.kind === "failed") throw failureError(answer);
    const candidate = chain.executedBlock({ ...work, commands, executed: answer.block });
    // Left out for good (their gas cannot be bought, or they ran too long), as a stored block's are.
    this.options.leaveOut(chain, candidate.rejected);
    return { ...work, commands, executed: answer.block, header: candidate.header };
  }

  /**
   * A candidate block of `commands` made on this thread (prepared, then given up): its header
   * with nonce 0, and the commands it holds, which made again without a time limit give the
   * same header; those it left out are left out for good.
   */
  private candidateHere(
    chain: NodeChain,
    commands: readonly ParsedCommand[],
    adjacentParents: ReadonlyMap<number, BlockHeader>,
    creationTime: number,
  ): { readonly header: BlockHeader; readonly commands: readonly ParsedCommand[] } {
    const prepared = chain.prepareBlock(commands, adjacentParents, creationTime, 0n);
    chain.abortPrepared();
    this.options.leaveOut(chain, prepared.rejected);
    const left = new Set(prepared.rejected.map((r) => r.command));
    return { header: prepared.header, commands: commands.filter((c) => !left.has(c)) };
  }

  /**
   * Stores the block of solved `work` with its nonce (and the creation time the miner chose);
   * returns its header, or null when the chain moved on meanwhile (the work is stale): its
   * parent is no longer the chain's head, or an adjacent parent is no longer on its chain's
   * branch (a neighbour changed branch while the nonce was searched: the block would name a
   * block the cut has left, and the cut would not be braided).
   */
  storeSolved(work: PowWork, nonce: bigint, creationTime = work.creationTime): BlockHeader | null {
    const { chains } = this.options;
    const chain = chains[work.chainId]!;
    if (chain.head !== work.parent) return null;
    if (!this.stillBranches(chain, work.parent, work.adjacentParents)) return null;
    const block =
      work.executed === undefined
        ? chain.prepareBlock(work.commands, work.adjacentParents, creationTime, nonce, false)
        : chain.prepareExecuted({ ...work, executed: work.executed, creationTime, nonce });
    return this.options.store([{ chain, block }], "solved")[0]!.header;
  }

  /**
   * The adjacent parents and creation time of the next block of a chain; with `catchUp`, the
   * neighbours that are behind are mined first.
   */
  private blockInputs(chainId: number, catchUp: boolean) {
    const { chains, version } = this.options;
    const parent = chains[chainId]!.head;
    const neighbours = adjacentChains(graphAt(version, parent.height + 1), chainId);
    if (catchUp) for (const n of neighbours) this.ensureHeight(n, parent.height, "small");
    const adjacentParents = new Map<number, BlockHeader>();
    let latest = parent.creationTime;
    for (const n of neighbours) {
      const adjacent = chains[n]!.headerAt(parent.height);
      if (adjacent === undefined)
        throw new Error(`chain ${n} has no block at height ${parent.height}`);
      adjacentParents.set(n, adjacent);
      latest = Math.max(latest, adjacent.creationTime);
    }
    return {
      adjacentParents,
      creationTime: Math.max(this.options.nowMicros(), latest + 1),
    };
  }

  /**
   * The pending commands of `scope` a block on the chain's head may hold. Commands that expired
   * before the head's time, or are already on the chain's branch (a block from elsewhere brought
   * them), are dropped; when one was created too long after the head's time, `needsFreshParent`
   * says so (and it is left for the next block).
   */
  private selectFor(chain: NodeChain, scope: CommandScope, now = this.options.nowMicros()) {
    const parentTime = chain.head.creationTime;
    const commands: ParsedCommand[] = [];
    const dropped: string[] = [];
    let needsFreshParent = false;
    for (const command of chain.mempool.select(this.options.blockGasLimit)) {
      const problem = blockTimeProblem(command, parentTime);
      if (problem === "expired" || chain.isOnChain(command.hashBytes)) dropped.push(command.hash);
      else if (problem === "future") {
        if (now > parentTime) needsFreshParent = true;
      } else if (scope === "all" || this.isSmall(command)) commands.push(command);
    }
    chain.mempool.remove(dropped);
    return { commands, needsFreshParent };
  }

  /** Whether a command's gas limit keeps it small enough for this thread's blocks. */
  private isSmall(command: ParsedCommand): boolean {
    return commandGasLimit(command.payload.meta, this.options.blockGasLimit) <= SMALL_COMMAND_GAS;
  }
}

/**
 * Which pending commands a block takes: all of them (a block asked for on its chain), or only the
 * small ones (a block made because another chain needs it: see the module's comment).
 */
type CommandScope = "all" | "small";
