/**
 * The node put together: opens the chain database and each chain's state, creates the genesis
 * blocks on a fresh data directory (or brings every chain's state to its stored head on reopen),
 * starts the mining mode, and closes everything in reverse. The one place the node's parts are
 * wired together; the API reaches the node only through the methods here and `events`, and a
 * running node — this with its P2P network and HTTP service — is put together by
 * src/app/start-node.ts.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Cut } from "../chain/cut/cut.ts";
import { ChainDatabase, ExplorerIndexes } from "../chain/db/index.ts";
import type { BlockHeader } from "../chain/header/types.ts";
import { findVersionByName } from "../chain/version/known-versions.ts";
import { allChainIds, type ChainwebVersion } from "../chain/version/version.ts";
import type { ParsedCommand } from "../command/index.ts";
import { StorageUnavailable } from "../pact/db/storage-failure.ts";
import { Decimal } from "../pact/values/index.ts";
import { openChain, replayToCut } from "./chain-opening.ts";
import { NodeClock } from "./clock.ts";
import {
  CHAIN_DB_FILE,
  checkChainFile,
  claimDataDir,
  type DataDirClaim,
  stateFile,
} from "./data-dir.ts";
import { DevControls, developmentOnlyProblem } from "./dev/controls.ts";
import { NodeEvents } from "./events.ts";
import { BLOCK_TIME_BUDGET_MS } from "./executor/block/block-executor.ts";
import { ChainState, checkNoStateBlocks } from "./executor/chain-state.ts";
import { ExecutionThreads } from "./executor/execution-threads.ts";
import { InProcessExecutor } from "./executor/in-process-executor.ts";
import { NodeExecutors } from "./executor/node-executors.ts";
import { readChainwebGenesisFolder } from "./genesis/chainweb-genesis-files.ts";
import { DEV_BLOCK_REWARD } from "./genesis/coin-calls.ts";
import type { ForeignBlock } from "./import/foreign-block.ts";
import { createChainwebGenesis, createGenesis, reopenedVersion } from "./import/genesis-blocks.ts";
import { BlockImporter } from "./import/importer.ts";
import type { NodeLogger } from "./logger.ts";
import { JOURNAL_FILE, type JournalContents, MempoolJournal } from "./mempool-journal.ts";
import type { MiningControl } from "./miner/control.ts";
import { MiningCoordinator } from "./miner/coordination.ts";
import { startMining } from "./miner/modes.ts";
import { BlockProducer } from "./miner/producer.ts";
import { type ChainContext, cutOf, type NodeChain } from "./node-chain.ts";
import type { NodeOptions } from "./options.ts";
import type { NodePorts } from "./ports.ts";
import { NodeCommandService } from "./services/command-service.ts";
import { NodeMempoolExchange } from "./services/mempool-exchange.ts";
import { StorageGuard } from "./storage-guard.ts";

export { CHAIN_DB_FILE, stateFile } from "./data-dir.ts";

/**
 * How often each chain's contract state is committed to its file. Between two flushes a state
 * holds its blocks in an open database transaction (a commit per block would cost more than
 * executing an empty block); the chain database, which commits every block, is what makes them
 * durable: after a crash, start-up replays the blocks the state lost. The chains take turns, one
 * every `STATE_FLUSH_INTERVAL_MS / chains` (10 ms for 20): the twenty commits made together held
 * the event loop for 1–6 ms at a time while a client waited (10–14 ms during a catch-up).
 */
export const STATE_FLUSH_INTERVAL_MS = 200;

/**
 * How often the mempools drop the commands whose time to live ended. A node that makes blocks
 * drops them as it selects a block's commands; one that makes none (`--mining none`) would keep
 * them, in memory and in its journal, until it restarts.
 */
export const MEMPOOL_EXPIRY_SWEEP_MS = 60_000;

export class BraidNode {
  readonly producer: BlockProducer;
  /** The mempool's admission, `local`, results and SPV proofs (the `commands` port). */
  readonly commands: NodeCommandService;
  private mining: MiningControl | null = null;
  private portsMade: NodePorts | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  /** The chain whose state the next turn of the flush timer commits. */
  private nextFlushed = 0;
  private expiryTimer: NodeJS.Timeout | undefined;

  private constructor(
    readonly options: NodeOptions,
    readonly version: ChainwebVersion,
    readonly chainDb: ChainDatabase,
    readonly chains: readonly NodeChain[],
    readonly log: NodeLogger,
    /** Whether the genesis blocks were made by this start (a fresh data directory). */
    readonly fresh: boolean,
    /** Every stored block: the only bridge to the header stream and `listen`. */
    readonly events: NodeEvents,
    /** The one way blocks are stored and heads moved. */
    readonly importer: BlockImporter,
    /** The explorer's indexes, registered with the chain database. */
    private readonly explorerIndexes: ExplorerIndexes,
    /** Whether writes work (storage-guard.ts). */
    readonly storage: StorageGuard,
    /** The data directory this process holds (null in memory). */
    private readonly claim: DataDirClaim | null,
    /** The node's clock: the system's, moved forward by `braid dev time`. */
    readonly clock: NodeClock,
    /** The mempools' journal in the data directory (null in memory). */
    private readonly journal: MempoolJournal | null,
    /** Who executes contract work: execution threads, or this thread. */
    private readonly executors: NodeExecutors,
  ) {
    this.producer = new BlockProducer({
      version,
      chains,
      blockGasLimit: options.mempool.blockGasLimit,
      nowMicros: () => this.clock.nowMicros(),
      store: (prepared, origin) => importer.storeProduced(prepared, origin),
      leaveOut: (chain, rejected) => importer.leaveOut(chain, rejected),
      onError: (e) =>
        log.error(`catching the chains up failed: ${e instanceof Error ? e.message : String(e)}`),
      execute: (request) => executors.makeBlock(request),
    });
    this.commands = new NodeCommandService({
      options,
      version,
      chainDb,
      chains,
      producer: this.producer,
      clock: this.clock,
      events,
      // While writes fail, no request makes blocks (a `poll` answers from those there are).
      mining: () => (this.storage.failed ? null : this.mining),
      storage,
      executors,
    });
    events.on("pending", (chainId) => this.commands.commandsArrived(chainId));
  }

  /**
   * Opens (or creates) the node's databases and starts mining as configured. The data directory
   * is claimed first (data-dir.ts): a second process is refused before anything changes. When
   * opening fails, what this start created is removed.
   */
  static open(options: NodeOptions, log: NodeLogger): BraidNode {
    const dir = options.storage.dataDir;
    // Read before anything is claimed or opened: a path that holds no chainweb-node genesis
    // changes nothing.
    const chainwebGenesis =
      options.genesis === null ? null : readChainwebGenesisFolder(options.genesis);
    const claim = dir === null ? null : claimDataDir(dir);
    const path = (file: string) => (dir === null ? ":memory:" : join(dir, file));
    // The network's version as the configuration names it, before its genesis payloads are made.
    const base = findVersionByName(options.network);
    // The explorer's indexes, and development snapshots where the development controls serve.
    const explorer = new ExplorerIndexes();
    const states: ChainState[] = [];
    let chainDb: ChainDatabase | null = null;
    let journal: MempoolJournal | null = null;
    let threads: ExecutionThreads | null = null;
    // The chains and their importer, once opened: the storage guard recovers them after a
    // failed write (the states tell it of their writes from the first on).
    let chains: readonly NodeChain[] = [];
    let importer: BlockImporter | undefined;
    let node: BraidNode | null = null;
    const storage = new StorageGuard({
      dataDir: dir,
      log,
      recover: () => importer?.recoverStates(),
      probe: () => {
        for (const chain of chains) chain.state.flush();
      },
      resumed: () => node?.resumeMining(),
    });
    try {
      if (dir !== null) checkChainFile(dir);
      chainDb = new ChainDatabase(path(CHAIN_DB_FILE), base, {
        indexers: [explorer],
        devSnapshots: developmentOnlyProblem(options.network) === null,
        onCorruption: (e) => log.error(e.message),
      });
      for (const chainId of allChainIds(base)) {
        states.push(
          ChainState.open(chainId, dir === null ? null : path(stateFile(chainId)), storage),
        );
      }
      // Started before the genesis blocks are made or the stored ones replayed, so that a
      // thread loads its code meanwhile (its files are opened with its first work).
      threads =
        dir === null || options.execution.executionThreads === 0
          ? null
          : executionThreads(options, states, () => storage.failed, path, log);
      const opened = dir === null ? null : openJournal(path(JOURNAL_FILE), log);
      journal = opened?.journal ?? null;
      const fresh = chainDb.chainIds().length === 0;
      if (fresh) checkNoStateBlocks(states);
      const version = !fresh
        ? reopenedVersion(chainDb, base, chainwebGenesis, dir ?? ":memory:")
        : chainwebGenesis === null
          ? createGenesis(chainDb, states, base)
          : createChainwebGenesis(chainDb, states, base, chainwebGenesis);
      const context: ChainContext = {
        version,
        networkId: options.network,
        chainDb,
        miner: options.mining.miner,
        blockGasLimit: options.mempool.blockGasLimit,
        commandTimeLimitMs: options.execution.commandTimeLimitMs,
        blockTimeBudgetMs: options.execution.blockTimeBudgetMs ?? BLOCK_TIME_BUDGET_MS,
        reward: Decimal.parseLiteral(DEV_BLOCK_REWARD),
        entityKeys: options.mempool.entityKeys,
        journal,
        chainwebGenesis: chainwebGenesis !== null,
      };
      chains = states.map((state, chainId) => openChain(chainId, state, context));
      const events = new NodeEvents();
      const powRequired = options.p2p.requirePow;
      const clock = new NodeClock(chainDb);
      importer = new BlockImporter({
        version,
        chainDb,
        chains,
        log,
        events,
        storage,
        powRequired,
        nowMicros: () => clock.nowMicros(),
        checker: threads,
      });
      replayToCut(importer, chainDb, chains, log);
      const { execution } = options;
      const executors = new NodeExecutors(threads, new InProcessExecutor(chains), {
        localOnThreadMs: execution.localTimeLimitMs,
        blockCommandOnThreadMs: execution.blockCommandTimeLimitMs,
        commandHereMs: execution.commandTimeLimitMs,
        blockBudgetMs: execution.blockTimeBudgetMs ?? BLOCK_TIME_BUDGET_MS,
      });
      node = new BraidNode(
        options,
        version,
        chainDb,
        chains,
        log,
        fresh,
        events,
        importer,
        explorer,
        storage,
        claim,
        clock,
        journal,
        executors,
      );
      node.mining = startMining(options.mining, node.producer, log);
      if (opened !== null) node.takeBack(opened.contents);
      const flushTurnMs = STATE_FLUSH_INTERVAL_MS / node.chains.length;
      node.flushTimer = setInterval(() => node!.flushNextState(), flushTurnMs).unref();
      node.expiryTimer = setInterval(() => node!.dropExpired(), MEMPOOL_EXPIRY_SWEEP_MS).unref();
      return node;
    } catch (e) {
      void threads?.close();
      journal?.close();
      storage.close();
      for (const state of states) state.close();
      chainDb?.close();
      claim?.release();
      if (claim?.created != null) rmSync(claim.created, { recursive: true, force: true });
      throw e;
    }
  }

  /**
   * Stops mining and closes the databases. A checkpoint under way finishes first, so closing
   * copies the whole log back: then the databases close once it has (await the promise);
   * otherwise at once, before this returns.
   */
  close(): Promise<void> {
    clearInterval(this.flushTimer);
    clearInterval(this.expiryTimer);
    this.storage.close();
    this.mining?.stop();
    this.producer.close();
    const threadsClosed = this.executors.close();
    const closeStores = () => {
      // Each one closes even when another fails (a full disk refuses the states' last flush:
      // the next start replays those blocks).
      const closings = [
        ...this.chains.map((chain) => () => chain.state.close()),
        () => this.chainDb.close(),
        () => this.journal?.close(),
        () => this.claim?.release(),
      ];
      for (const close of closings) {
        try {
          close();
        } catch (e) {
          this.log.error(`closing storage failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    };
    if (!this.chainDb.checkpointing) {
      closeStores();
      return threadsClosed;
    }
    return Promise.all([threadsClosed, this.chainDb.checkpointsSettled().then(closeStores)]).then(
      () => undefined,
    );
  }

  /**
   * Closes the node, and removes the data directory when this start created it: a start that
   * fails after opening (a port in use) leaves nothing behind.
   */
  async closeDiscardingNew(): Promise<void> {
    await this.close();
    const created = this.claim?.created;
    if (created != null) rmSync(created, { recursive: true, force: true });
  }

  /**
   * Commits the pending blocks of one chain's contract state to its file, the chains in turn; not
   * while writes fail (the storage guard's retries flush them then).
   */
  private flushNextState(): void {
    if (this.storage.failed) return;
    const chain = this.chains[this.nextFlushed]!;
    this.nextFlushed = (this.nextFlushed + 1) % this.chains.length;
    try {
      chain.state.flush();
    } catch (e) {
      // A failure of the disk is the storage guard's to log (the state told it).
      if (!(e instanceof StorageUnavailable)) {
        this.log.error(
          `saving the contract state failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    }
  }

  /**
   * On start: the commands of the journal go back into their mempools through admission on the
   * current state (so to peers, and into blocks, again); those admission refuses now (in a block,
   * expired, their gas no longer payable) or that find the mempool full leave the journal.
   */
  private takeBack(contents: JournalContents): void {
    const { entries, unreadable } = contents;
    if (entries.length === 0 && unreadable === 0) return;
    const byChain = new Map<number, ParsedCommand[]>();
    for (const { chainId, command } of entries) {
      const commands = byChain.get(chainId);
      if (commands === undefined) byChain.set(chainId, [command]);
      else commands.push(command);
    }
    let back = 0;
    try {
      for (const [chainId, commands] of byChain) {
        if (this.chains[chainId] === undefined) continue;
        back += this.commands.readmit(chainId, commands).added.length;
      }
    } catch (e) {
      // Writes fail (storage-guard.ts): the journal keeps them all for the next start.
      this.log.error(
        `mempool journal: taking back its ${entries.length} commands stopped (${back} back); they all stay in the journal for the next start: ${e instanceof Error ? e.message : String(e)}`,
      );
      return;
    }
    const gone = entries
      .filter(({ chainId, command }) => this.chains[chainId]?.mempool.has(command.hash) !== true)
      .map(({ command }) => command.hash);
    this.journal!.release(gone);
    this.log.info(
      `mempool journal: ${back} commands back in the mempools, ${gone.length} dropped (in a block, expired or refused now)${unreadable > 0 ? `, ${unreadable} unreadable` : ""}`,
    );
  }

  /** Drops the commands whose time to live ended from every mempool (and so from the journal). */
  private dropExpired(): void {
    const now = this.clock.nowSeconds();
    let dropped = 0;
    for (const chain of this.chains) dropped += chain.mempool.removeExpired(now).length;
    if (dropped > 0) this.log.info(`mempools: ${dropped} expired commands dropped`);
  }

  /** Once writes work again: the commands that waited are mined, the chains caught up. */
  private resumeMining(): void {
    for (const chain of this.chains) {
      if (chain.mempool.size > 0) this.commands.commandsArrived(chain.chainId);
    }
    if (this.commands.minesOnRequest) this.producer.level();
  }

  /** Resolves once the execution threads have loaded their code (at once without threads). */
  executionThreadsStarted(): Promise<void> {
    return this.executors.started();
  }

  /** What the API and the CLI may use of the node (ports.ts). */
  get ports(): NodePorts {
    this.portsMade ??= {
      network: {
        version: this.version,
        networkId: this.options.network,
        chainCount: this.chains.length,
      },
      blocks: this.chainDb,
      explorer: this.explorerIndexes,
      heads: this,
      events: this.events,
      clock: this.clock,
      commands: this.commands,
      mempools: new NodeMempoolExchange(this.chains, this.commands),
      mining: this.minesWithNonces
        ? new MiningCoordinator(this.version, this.producer, () => this.clock.nowMicros())
        : null,
      dev: this.devControls(),
      sync: {
        // A sync's blocks: imported in turns, so that the API answers during a catch-up.
        importBlocks: (blocks) => this.importer.importForeignYielding(blocks),
        offerCut: (heads) => this.importer.offerCut(heads),
      },
    };
    return this.portsMade;
  }

  /** The development controls, on a development network. */
  private devControls(): DevControls | { readonly refused: string } {
    const problem = developmentOnlyProblem(this.options.network);
    return problem === null ? new DevControls(this) : { refused: problem };
  }

  /** The cut: every chain's head (moved only by the importer, which announces each move). */
  cut(): Cut {
    return cutOf(this.chains);
  }

  /** A chain's head; undefined for a chain the network lacks. */
  head(chainId: number): BlockHeader | undefined {
    return this.chains[chainId]?.head;
  }

  /** Whether every block needs its nonce search (pow). */
  get minesWithNonces(): boolean {
    return this.mining?.searchesNonces ?? false;
  }

  /**
   * Imports blocks made elsewhere (parents first; a peer's, or a competing branch in a test):
   * validated, executed on their fork and compared, then stored and adopted when heavier.
   * Throws an `ImportError` for a block that is not what it claims; nothing of the batch is
   * stored then.
   */
  insertBlocks(blocks: readonly ForeignBlock[]): void {
    this.importer.importForeign(blocks);
  }
}

/** The data directory's mempool journal; an unreadable one is replaced, with an error logged. */
function openJournal(file: string, log: NodeLogger) {
  return MempoolJournal.open(file, {
    onUnreadable: (message) => log.error(message),
    onReleaseFailure: (e) =>
      log.warn(
        `the mempool journal could not forget commands (they are dropped at the next start): ${e instanceof Error ? e.message : String(e)}`,
      ),
  });
}

/**
 * The threads that run contract work beside this one, on read-only views of the data directory's
 * files; a chain's state is saved before work on it is handed over (not while writes fail: the
 * thread then finds the state behind and the work runs on this thread).
 */
function executionThreads(
  options: NodeOptions,
  states: readonly ChainState[],
  writesFail: () => boolean,
  path: (file: string) => string,
  log: NodeLogger,
): ExecutionThreads {
  return new ExecutionThreads({
    threads: options.execution.executionThreads,
    data: {
      network: options.network,
      networkId: options.network,
      miner: options.mining.miner,
      blockGasLimit: options.mempool.blockGasLimit,
      chainDbPath: path(CHAIN_DB_FILE),
      statePaths: states.map((_, chainId) => path(stateFile(chainId))),
    },
    saveState: (chainId) => {
      if (!writesFail()) states[chainId]!.flush();
    },
    log,
  });
}
