/**
 * A chain's contract state (one SQLite file, versioned by block, or memory) and everything the
 * node does with it: the one object outside the executors' folder that stands for a state, so
 * that nothing else in the node reaches the contract database (the layering check holds it).
 * Each operation leaves the state's block open where the block is made (`executeNew`,
 * `applyWrites`, `executeForeign`, `replay`) for its owner (`NodeChain`) to store the block and
 * then `commit`, or `abort`. It is the contract states' write boundary for the storage guard
 * (storage-guard.ts): a new block is refused while writes fail, and a failure of the disk met by
 * any write is told to the guard and thrown as `StorageUnavailable`.
 */
import type { BlockHeader } from "../../chain/header/types.ts";
import type { PayloadWithOutputs } from "../../chain/payload/payload.ts";
import type { ParsedCommand } from "../../command/index.ts";
import type { BlockContext } from "../../execution/index.ts";
import {
  type BlockRecord,
  type BlockWrites,
  openMemoryPactDb,
  openSqlitePactDb,
  type VersionedPactDb,
} from "../../pact/db/index.ts";
import type { MinerAccount } from "../options.ts";
import type { StorageGuard } from "../storage-guard.ts";
import {
  type BlockEnvironment,
  type BlockTimeLimits,
  buyGas,
  type ExecutedBlock,
  executeBlock,
} from "./block/block-executor.ts";
import {
  executeChainwebGenesis,
  executeGenesis,
  type GenesisOutput,
} from "./block/genesis-execution.ts";

export type { BlockRecord, BlockWrites } from "../../pact/db/index.ts";

/** What a block checked on a fork's overlay wrote there, by its hash (undefined: not checked). */
export type WritesOfChecked = (hash: Uint8Array) => BlockWrites | undefined;

import type { ForeignBlock } from "../import/foreign-block.ts";
import { executeForeign, type ForeignChecks } from "./foreign-execution.ts";

export class ChainState {
  private constructor(
    readonly chainId: number,
    /** The state itself, for the executors' own use (`local` on it, a fork's overlay of it). */
    readonly db: VersionedPactDb,
    private readonly storage: StorageGuard,
  ) {}

  /**
   * The state of `chainId` in `file` (its blocks' commits batched, `flush` saves them), or in
   * memory (null); every write to it is told to `storage`.
   */
  static open(chainId: number, file: string | null, storage: StorageGuard): ChainState {
    const db = file === null ? openMemoryPactDb() : openSqlitePactDb(file, { batchCommits: true });
    return new ChainState(chainId, db, storage);
  }

  /** The last block committed on the state (null: none, not even genesis). */
  latestBlock(): BlockRecord | null {
    return this.db.latestBlock();
  }

  /** The block the state holds at `height` on its branch. */
  blockAt(height: number): BlockRecord | null {
    return this.db.blockAt(height);
  }

  /** Whether a block is open on the state (executed, neither committed nor aborted). */
  get blockOpen(): boolean {
    return this.db.blockHeight !== null;
  }

  /** Opens the block at `height` and runs the coinbase and `commands` on it (block-executor.ts). */
  executeNew(
    height: number,
    env: BlockEnvironment,
    commands: readonly ParsedCommand[],
    limits: BlockTimeLimits | null,
  ): ExecutedBlock {
    return this.storage.write(() => {
      this.db.beginBlock(height);
      return executeBlock(this.db, env, commands, limits);
    });
  }

  /** Opens the block at `height` holding the writes an executor made of it on a scratch state. */
  applyWrites(height: number, writes: BlockWrites): void {
    this.storage.write(() => this.db.applyBlock(height, writes));
  }

  /**
   * Opens the block at `height` holding what a check of it wrote on an overlay of this state
   * (fork-execution.ts), when those writes begin where the state is; false (nothing opened) when
   * they do not.
   */
  takeChecked(height: number, writes: BlockWrites): boolean {
    if (writes.firstTxId !== this.db.txId) return false;
    this.applyWrites(height, writes);
    return true;
  }

  /**
   * Opens the child of `parent` (the state's block) and executes a block made elsewhere on it;
   * its payload with the outputs execution gave, or an `ImportError` when it is not what it
   * claims.
   */
  executeForeign(
    block: ForeignBlock,
    parent: BlockHeader,
    env: (miner: MinerAccount) => BlockEnvironment,
    checks: ForeignChecks,
  ): PayloadWithOutputs {
    return this.storage.write(() => {
      this.db.beginBlock(parent.height + 1);
      return executeForeign(this.db, block, parent, env, checks);
    });
  }

  /**
   * Opens the block at `height` and runs its stored commands again: on `env` (a block with a
   * parent), as Braid's genesis block of `networkId`, or as chainweb-node's genesis block
   * `chainwebGenesis`; the outputs, to compare with the stored ones.
   */
  replay(
    height: number,
    commands: readonly ParsedCommand[],
    run:
      | { readonly env: BlockEnvironment }
      | { readonly genesisOf: string }
      | { readonly chainwebGenesis: BlockHeader },
  ): Uint8Array[] {
    return this.told(() => {
      this.db.beginBlock(height);
      if ("genesisOf" in run) {
        return executeGenesis(this.db, run.genesisOf, this.chainId, commands).map((c) => c.output);
      }
      if ("chainwebGenesis" in run) {
        return executeChainwebGenesis(this.db, run.chainwebGenesis, commands).map((c) => c.output);
      }
      return executeBlock(this.db, run.env, commands).commands.map((c) => c.output);
    });
  }

  /** Opens the genesis block and runs the genesis commands of `networkId` on it. */
  executeGenesis(networkId: string, commands: readonly ParsedCommand[]): GenesisOutput[] {
    return this.told(() => {
      this.db.beginBlock(0);
      return executeGenesis(this.db, networkId, this.chainId, commands);
    });
  }

  /** Opens the genesis block `genesis` and runs chainweb-node's genesis commands on it. */
  executeChainwebGenesis(
    genesis: BlockHeader,
    commands: readonly ParsedCommand[],
  ): GenesisOutput[] {
    return this.told(() => {
      this.db.beginBlock(genesis.height);
      return executeChainwebGenesis(this.db, genesis, commands);
    });
  }

  /**
   * The mempool's check of a command: its gas bought on the state as it is (rolled back); the
   * reason when it cannot be.
   */
  gasPurchaseProblem(block: BlockContext, command: ParsedCommand, gasLimit: number): string | null {
    const bought = buyGas(this.db, block, command, gasLimit, "local");
    return bought.kind === "rejected" ? bought.reason : null;
  }

  /** Commits the open block as the block `hash`. */
  commit(hash: Uint8Array): void {
    this.told(() => this.db.commitBlock(hash));
  }

  /**
   * Discards the open block, if any. Never throws: when the database cannot give the block up
   * (it lost the transaction in a failed write), the storage guard recovers the state.
   */
  abort(): void {
    if (this.db.blockHeight === null) return;
    try {
      this.db.abortBlock();
    } catch (e) {
      this.storage.stateUnusable(this.chainId, e);
    }
  }

  /** Discards the blocks above `height`. */
  rewindTo(height: number): void {
    this.told(() => this.db.rewindTo(height));
  }

  /** Reloads the state from its file after a failed write; the block it holds then. */
  recover(): BlockRecord | null {
    return this.db.recover();
  }

  /** Saves the committed blocks to the file. */
  flush(): void {
    this.told(() => this.db.flush());
  }

  close(): void {
    this.db.close();
  }

  /**
   * Runs a write that must happen even while writes are refused (the storage guard's recovery
   * replays and rewinds, its probe flushes): a failure of the disk it meets is told to the guard
   * and thrown as `StorageUnavailable`.
   */
  private told<T>(work: () => T): T {
    try {
      return work();
    } catch (e) {
      throw this.storage.refusal(e);
    }
  }
}

/** A chain database without blocks beside contract states that hold blocks is not a new network. */
export function checkNoStateBlocks(states: readonly ChainState[]): void {
  const state = states.find((s) => s.latestBlock() !== null);
  if (state === undefined) return;
  const height = state.latestBlock()!.height;
  throw new Error(
    `the chain database holds no blocks, but the contract state of chain ${state.chainId} is at height ${height}: the chain database was emptied or replaced; restore it from a backup, or move the data directory away to start a new network`,
  );
}
