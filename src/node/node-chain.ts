/**
 * One chain of the node: its contract state (one SQLite file, versioned by block), the block the
 * state is at (`head`), its mempool, and what reads them: results by request key and `local`.
 *
 * Storage order, which makes `kill -9` harmless: a block is executed on the state inside an open
 * state transaction (`prepareBlock`), then stored with its transaction index in the chain
 * database (committed, by the importer: import/importer.ts), then the state transaction commits
 * (`commitPrepared`). A crash between the two leaves the chain database ahead of
 * the state; `syncTo` on start-up replays the missing blocks from their stored payloads, which
 * reproduces them exactly (execution is deterministic and the outputs hash is checked).
 *
 * A failed write (a full disk) may cost the state the blocks it batched since its last flush
 * (SQLite rolls the transaction back): the storage guard (storage-guard.ts) then stops writes,
 * and `recoverState` moves the head back to what the state's file holds, for the importer to
 * replay the rest. A failure of the disk never becomes a command's result (src/execution/run.ts
 * throws it), so a stored block's outputs never depend on the disk.
 */

import { equalBytes } from "../chain/bytes.ts";
import type { Cut } from "../chain/cut/cut.ts";
import type { ChainDatabase, TxIndexEntry } from "../chain/db/index.ts";
import { genesisHeader, isGenesisHeader } from "../chain/header/genesis.ts";
import type { BlockHeader, ParentBlock } from "../chain/header/types.ts";
import { makeBlockHeader } from "../chain/mining/new-header.ts";
import { makePayloadWithOutputs, type PayloadWithOutputs } from "../chain/payload/payload.ts";
import type { ParsedCommand } from "../command/index.ts";
import { encodeBase64Url } from "../crypto/index.ts";
import { jsonString } from "../pact/values/index.ts";
import {
  type BlockEnvironment,
  type BlockTimeLimits,
  type ExecutedBlock,
  leavingOutTimedOut,
} from "./executor/block/block-executor.ts";
import { blockEnvironment, type EnvironmentParts } from "./executor/block/environment.ts";
import type {
  BlockRecord,
  BlockWrites,
  ChainState,
  WritesOfChecked,
} from "./executor/chain-state.ts";
import type { CheckedForeignBlock } from "./executor/contract-executor.ts";
import { blockOfExecuted, type ExecutedWork } from "./executor/executed-block.ts";
import { storedChainwebGenesisCommand } from "./genesis/chainweb-genesis.ts";
import type { ForeignBlock } from "./import/foreign-block.ts";
import { ImportError } from "./import/import-error.ts";
import { Mempool } from "./mempool/mempool.ts";
import type { MempoolJournal } from "./mempool-journal.ts";
import type { MinerAccount } from "./options.ts";
import type { ProofAncestry } from "./spv.ts";
import { indexOfPayload, storedCommand, storedMiner } from "./stored-payload.ts";

const utf8 = new TextDecoder();

/** What every chain of a node shares. */
export interface ChainContext extends EnvironmentParts {
  readonly chainDb: ChainDatabase;
  /** How long one command of a block this node makes may run (the `commandTimeLimit` option). */
  readonly commandTimeLimitMs: number;
  /** How long a block this node makes takes commands (`BLOCK_TIME_BUDGET_MS` but in tests). */
  readonly blockTimeBudgetMs: number;
  /**
   * The keys of this node's entity (the `entityKeys` option): a block from elsewhere may hold a
   * private command only when one of them signed it, as this node's own `private` requires.
   */
  readonly entityKeys: readonly string[];
  /** Where the mempools' commands are kept across restarts (null: nowhere, a node in memory). */
  readonly journal: MempoolJournal | null;
  /** The genesis blocks are chainweb-node's (`--genesis`): replayed as chainweb-node runs them. */
  readonly chainwebGenesis: boolean;
}

/** A block this chain stored: what the node announces. */
export interface StoredBlock {
  readonly header: BlockHeader;
  readonly payload: PayloadWithOutputs;
  /** Request keys of its commands, in payload order. */
  readonly requestKeys: readonly string[];
  /** Commands that were offered but left out, with the reason. */
  readonly rejected: ExecutedBlock["rejected"];
}

/** A block executed on the state (still open) and ready to be stored. */
export interface PreparedBlock extends StoredBlock {
  readonly index: readonly TxIndexEntry[];
}

/** A block from elsewhere with the payload its execution or check gave, ready to store. */
function foreignPrepared(
  header: BlockHeader,
  payload: PayloadWithOutputs,
  index: TxIndexEntry[],
): PreparedBlock {
  const requestKeys = index.map((entry) => encodeBase64Url(entry.requestKey));
  return { header, payload, index, requestKeys, rejected: [] };
}

/** The cut the chains are at: each one's head. */
export function cutOf(chains: readonly NodeChain[]): Cut {
  return new Map(chains.map((chain) => [chain.chainId, chain.head]));
}

export class NodeChain {
  readonly mempool: Mempool;
  /** The block the state is at. */
  private current: BlockHeader;
  /**
   * The head's parent when the head was reached by extending it (kept in memory because the
   * next blocks of adjacent chains name it: reading it from the chain database cost more than
   * a tenth of an empty block).
   */
  private parentOfHead: BlockHeader | undefined;

  constructor(
    readonly chainId: number,
    readonly state: ChainState,
    private readonly context: ChainContext,
    head: BlockHeader,
  ) {
    this.current = head;
    this.mempool = new Mempool(context.journal?.keeperOf(chainId) ?? null);
  }

  get head(): BlockHeader {
    return this.current;
  }

  private set head(header: BlockHeader) {
    this.parentOfHead = equalBytes(header.parent, this.current.hash) ? this.current : undefined;
    this.current = header;
  }

  /** The head or its parent when `hash` names one of them (both in memory). */
  headOrParent(hash: Uint8Array): BlockHeader | undefined {
    if (equalBytes(hash, this.current.hash)) return this.current;
    const parent = this.parentOfHead;
    return parent !== undefined && equalBytes(hash, parent.hash) ? parent : undefined;
  }

  /** The block of this chain's current branch at `height` (at most the head's). */
  headerAt(height: number): BlockHeader | undefined {
    if (height === this.current.height) return this.current;
    if (height === this.parentOfHead?.height) return this.parentOfHead;
    return this.context.chainDb.ancestorAt(this.current.hash, height);
  }

  /**
   * The block environment of a child of `parent` mined by `miner` (the node's own by default);
   * proofs' roots are looked for in `ancestry` (the chain database unless given).
   */
  environment(
    parent: ParentBlock,
    miner: MinerAccount = this.context.miner,
    ancestry: ProofAncestry = this.context.chainDb,
  ): BlockEnvironment {
    return blockEnvironment(this.context, this.chainId, parent, ancestry, miner);
  }

  /**
   * Executes a new block on top of `head`, leaving the state's block open: the importer stores
   * it in the chain database (alone or with other chains' blocks, in one transaction), then
   * calls {@link commitPrepared} — or {@link abortPrepared} when storing failed. A command that
   * runs past the node's time limit is left out (listed in `rejected`) and the block made again
   * without it. `timeLimited: false` runs commands already found to finish (a solved
   * proof-of-work block, which must come out as its work was made).
   */
  prepareBlock(
    commands: readonly ParsedCommand[],
    adjacentParents: ReadonlyMap<number, BlockHeader>,
    creationTime: number,
    nonce?: bigint,
    timeLimited = true,
  ): PreparedBlock {
    const { commandTimeLimitMs, blockTimeBudgetMs } = this.context;
    const limits = timeLimited
      ? { commandMs: commandTimeLimitMs, blockMs: blockTimeBudgetMs }
      : null;
    return leavingOutTimedOut(commands, (included) =>
      this.prepareOnce(included, adjacentParents, creationTime, nonce, limits),
    );
  }

  private prepareOnce(
    commands: readonly ParsedCommand[],
    adjacentParents: ReadonlyMap<number, BlockHeader>,
    creationTime: number,
    nonce: bigint | undefined,
    limits: BlockTimeLimits | null,
  ): PreparedBlock {
    const parent = this.head;
    const { state, context } = this;
    try {
      const executed = state.executeNew(
        parent.height + 1,
        this.environment(parent),
        commands,
        limits,
      );
      const payload = makePayloadWithOutputs(
        executed.commands.map((c) => ({ transaction: c.transaction, output: c.output })),
        executed.minerData,
        executed.coinbase,
      );
      const header = makeBlockHeader({
        version: context.version,
        parent,
        adjacentParents,
        payloadHash: payload.payloadHash,
        creationTime,
        nonce,
      });
      return {
        header,
        payload,
        index: executed.commands.map((c) => ({
          requestKey: c.command.hashBytes,
          metaOffset: c.metaOffset,
        })),
        requestKeys: executed.commands.map((c) => c.command.hash),
        rejected: executed.rejected,
      };
    } catch (e) {
      this.abortPrepared();
      throw e;
    }
  }

  /**
   * The block holding what an executor made of `commands` on a scratch state after `parent`
   * (node-executors.ts): its payload from the outputs, its header (nonce 0 unless given). Nothing
   * is applied to the state: a proof-of-work candidate, or the block {@link prepareExecuted} opens.
   */
  executedBlock(work: ExecutedWork): PreparedBlock {
    const { parent, adjacentParents, creationTime, nonce } = work;
    const { payload, index, requestKeys, rejected } = blockOfExecuted(work.commands, work.executed);
    const header = makeBlockHeader({
      version: this.context.version,
      parent,
      adjacentParents,
      payloadHash: payload.payloadHash,
      creationTime,
      nonce,
    });
    return { header, payload, index, requestKeys, rejected };
  }

  /**
   * Opens a new block on top of `parent` (the head) holding what an executor made of `commands`
   * ({@link executedBlock}): its writes applied to the state, left open as {@link prepareBlock}
   * leaves a block.
   */
  prepareExecuted(work: ExecutedWork): PreparedBlock {
    const block = this.executedBlock(work);
    this.state.applyWrites(work.parent.height + 1, work.executed.writes);
    return block;
  }

  /**
   * Opens a block made elsewhere on top of `head` and executes it on the state, which checks it
   * (foreign-execution.ts: an `ImportError` when it is not what it claims) and gives its payload
   * with outputs, leaving the state's block open as {@link prepareBlock} does; when that throws,
   * the block is aborted and the error passed on.
   */
  prepareForeign(block: ForeignBlock): PreparedBlock {
    const parent = this.head;
    try {
      const payload = this.state.executeForeign(
        block,
        parent,
        (miner) => this.environment(parent, miner),
        { onBranch: (hashBytes) => this.isOnChain(hashBytes), entityKeys: this.entityKeys },
      );
      return foreignPrepared(block.header, payload, indexOfPayload(payload));
    } catch (e) {
      this.abortPrepared();
      throw e;
    }
  }

  /**
   * {@link prepareForeign} for a block an execution thread checked (checked-ahead.ts): the state
   * takes what it wrote there, its payload the check's. Null (nothing opened) when a command of it
   * is already on this branch (which the check cannot see) or the writes begin elsewhere.
   */
  prepareChecked(block: ForeignBlock, checked: CheckedForeignBlock): PreparedBlock | null {
    if (!equalBytes(checked.payload.payloadHash, block.header.payloadHash)) return null;
    const index = indexOfPayload(checked.payload);
    if (index.some((entry) => this.isOnChain(entry.requestKey))) return null;
    try {
      if (!this.state.takeChecked(this.head.height + 1, checked.writes)) return null;
    } catch (e) {
      this.abortPrepared();
      throw e;
    }
    return foreignPrepared(block.header, checked.payload, index);
  }

  /** Commits the state of a prepared block (stored meanwhile) and moves `head` to it. */
  commitPrepared(prepared: PreparedBlock): StoredBlock {
    this.state.commit(prepared.header.hash);
    this.head = prepared.header;
    return prepared;
  }

  /**
   * Discards the prepared block's state. Never throws: when the database cannot give the block
   * up (it lost the transaction in a failed write), the storage guard recovers the state.
   */
  abortPrepared(): void {
    this.state.abort();
  }

  /**
   * After a failed write (the importer's `recoverStates`): the state recovered (reloaded from
   * its file, which may hold fewer blocks than before) and the head moved back to the block it
   * holds; the importer then replays the stored blocks after it (`adoptCut`).
   */
  recoverState(): void {
    const recovered = this.state.recover();
    const latest = this.storedBlockAtOrBelow(recovered);
    if (latest !== recovered && latest !== null) this.state.rewindTo(latest.height);
    if (latest === null) {
      // It lost its genesis block too (a failure before the first flush).
      const genesis = genesisHeader(this.context.version, this.chainId);
      this.current = genesis;
      this.parentOfHead = undefined;
      this.replay(genesis);
      return;
    }
    if (equalBytes(latest.hash, this.current.hash)) return;
    this.current = this.context.chainDb.header(latest.hash)!;
    this.parentOfHead = undefined;
  }

  /**
   * The highest block of the state, from `latest` down, that the chain database holds. The state
   * can hold more: blocks from elsewhere are committed on their states inside one chain-database
   * transaction, and when that transaction fails (a full disk) the chain database loses them
   * while the states, other files, keep them.
   */
  private storedBlockAtOrBelow(latest: BlockRecord | null): BlockRecord | null {
    let block = latest;
    while (block !== null && !this.context.chainDb.has(block.hash)) {
      block = block.height === 0 ? null : this.state.blockAt(block.height - 1);
      if (block === null) {
        throw new Error(`chain ${this.chainId}: the chain database holds no block of the state`);
      }
    }
    return block;
  }

  /**
   * Brings the state to `target` (a stored block of this chain): rewinds to the fork point with
   * the state's branch, then replays the stored blocks up to `target`. Returns the commands of
   * the blocks rewound (they may belong in the mempool again) and the request keys of those
   * replayed (they no longer do). `onReplayed` is told of each block replayed (progress).
   */
  syncTo(
    target: BlockHeader,
    onReplayed?: (header: BlockHeader) => void,
    writesOf?: WritesOfChecked,
  ): { readonly dropped: ParsedCommand[]; readonly added: string[] } {
    const db = this.context.chainDb;
    const path: BlockHeader[] = [];
    let at: BlockHeader | undefined = target;
    while (at !== undefined && !db.isAncestor(at.hash, this.head.hash)) {
      path.push(at);
      at = db.header(at.parent);
    }
    if (at === undefined) {
      throw new Error(`chain ${this.chainId}: no common ancestor with the state`);
    }
    const dropped: ParsedCommand[] = [];
    if (at.height < this.head.height) {
      for (let h = this.head; h.height > at.height; h = db.header(h.parent)!) {
        const block = db.block(h.hash)!;
        dropped.push(...block.payload.transactions.map((t) => storedCommand(t.transaction)));
      }
      this.state.rewindTo(at.height);
      this.head = at;
    }
    const added: string[] = [];
    for (const header of path.reverse()) {
      added.push(...this.replay(header, writesOf?.(header.hash)).map((c) => c.hash));
      onReplayed?.(header);
    }
    return { dropped, added };
  }

  /**
   * Re-executes a stored block on the state (which is at its parent) and commits it; its
   * commands. `checked`, what the block wrote when it was checked on an overlay of this state
   * (fork-execution.ts), is taken instead when it begins where the state is.
   */
  replay(header: BlockHeader, checked?: BlockWrites): ParsedCommand[] {
    const stored = this.context.chainDb.block(header.hash);
    if (stored === undefined)
      throw new Error(`block ${encodeBase64Url(header.hash)} is not stored`);
    // chainweb-node's genesis commands carry hashes not of their texts (chainweb-genesis.ts).
    const parse =
      this.context.chainwebGenesis && isGenesisHeader(this.context.version, header)
        ? storedChainwebGenesisCommand
        : storedCommand;
    const commands = stored.payload.transactions.map((t) => parse(t.transaction));
    try {
      if (checked === undefined || !this.state.takeChecked(header.height, checked)) {
        this.reexecute(header, stored.payload, commands);
      }
      this.state.commit(header.hash);
      this.head = header;
      return commands;
    } catch (e) {
      this.abortPrepared();
      throw e;
    }
  }

  /** Executes a stored block again on the state, which must give the outputs it holds. */
  private reexecute(
    header: BlockHeader,
    payload: PayloadWithOutputs,
    commands: readonly ParsedCommand[],
  ): void {
    const parent = this.context.chainDb.header(header.parent);
    const outputs = this.state.replay(
      header.height,
      commands,
      parent !== undefined
        ? { env: this.environment(parent, storedMiner(header, payload)) }
        : this.context.chainwebGenesis
          ? { chainwebGenesis: header }
          : { genesisOf: this.context.networkId },
    );
    const same =
      outputs.length === payload.transactions.length &&
      outputs.every((o, i) => equalBytes(o, payload.transactions[i]!.output));
    if (!same) {
      throw new ImportError(
        "outputs-mismatch",
        this.chainId,
        header.hash,
        "replaying the stored block gave other outputs than it holds: the data directory is damaged",
      );
    }
  }

  /** The keys whose private commands a block from elsewhere may hold (ChainContext). */
  get entityKeys(): readonly string[] {
    return this.context.entityKeys;
  }

  /** Whether the command is in a block of the current branch. */
  isOnChain(hashBytes: Uint8Array): boolean {
    return this.isOnBranch(hashBytes, this.head);
  }

  /** Whether the command is in a block of the branch ending at `tip` (a stored block of this chain). */
  isOnBranch(hashBytes: Uint8Array, tip: BlockHeader): boolean {
    return this.locate(hashBytes, 0, tip) !== null;
  }

  /**
   * The command's result, with the block's `metaData`, when it is in a block of the current
   * branch with at least `confirmationDepth` blocks on top; null otherwise.
   */
  result(hashBytes: Uint8Array, confirmationDepth: number): string | null {
    const found = this.locate(hashBytes, confirmationDepth);
    if (found === null) return null;
    const { header, position, metaOffset } = found;
    const bytes = this.context.chainDb.commandOutput(header.hash, position)!;
    const meta = `{"blockHash":${jsonString(encodeBase64Url(header.hash))},"blockHeight":${header.height},"blockTime":${header.creationTime},"prevBlockHash":${jsonString(encodeBase64Url(header.parent))}}`;
    return (
      utf8.decode(bytes.subarray(0, metaOffset)) +
      meta +
      utf8.decode(bytes.subarray(metaOffset + 4))
    );
  }

  /**
   * The block of the branch ending at `tip` (the current branch unless told) holding the command
   * (with `depth` blocks on top) and the command's index and `metaData` offset in it; null when
   * there is none.
   */
  locate(hashBytes: Uint8Array, depth: number, tip: BlockHeader = this.head) {
    const db = this.context.chainDb;
    for (const location of db.transactionLocations(hashBytes)) {
      const link = db.link(location.blockHash);
      if (link === undefined || link.chainId !== this.chainId) continue;
      if (link.height + depth > tip.height) continue;
      if (!db.isAncestor(location.blockHash, tip.hash)) continue;
      const header = db.header(location.blockHash)!;
      return { header, position: location.position, metaOffset: location.metaOffset };
    }
    return null;
  }
}
