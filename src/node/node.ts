/**
 * The node's composition root: opens the chain database and each chain's state, creates the
 * genesis blocks on a fresh data directory (or brings every chain's state to its stored head on
 * reopen), starts the mining mode, and closes everything in reverse. The one place the parts are
 * wired together; the API reaches the node only through the methods here and `events`.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Cut } from "../chain/cut/cut.ts";
import { type Block, ChainDatabase, ExplorerIndexes } from "../chain/db/index.ts";
import { genesisHeader } from "../chain/header/genesis.ts";
import type { BlockHeader } from "../chain/header/types.ts";
import { findVersionByName } from "../chain/version/known-versions.ts";
import { allChainIds, type ChainwebVersion } from "../chain/version/version.ts";
import { openMemoryPactDb, openSqlitePactDb, type VersionedPactDb } from "../pact/db/index.ts";
import { Decimal } from "../pact/values/index.ts";
import { NodeClock } from "./clock.ts";
import { DevControls, developmentOnlyProblem } from "./dev/controls.ts";
import { NodeEvents } from "./events.ts";
import { DEV_BLOCK_REWARD } from "./genesis/coin-calls.ts";
import { createGenesis, storedVersion } from "./import/genesis-blocks.ts";
import { BlockImporter } from "./import/importer.ts";
import type { NodeLogger } from "./logger.ts";
import type { MiningControl } from "./miner/control.ts";
import { MiningCoordinator } from "./miner/coordination.ts";
import { startMining } from "./miner/modes.ts";
import { BlockProducer } from "./miner/producer.ts";
import { type ChainContext, NodeChain } from "./node-chain.ts";
import type { NodeOptions } from "./options.ts";
import type { NodePorts } from "./ports.ts";
import { NodeCommandService } from "./services/command-service.ts";

/** The chain database's file in the data directory. */
export const CHAIN_DB_FILE = "chain.sqlite";
/** Chain c's contract state file in the data directory. */
export const stateFile = (chainId: number) => `state-${chainId}.sqlite`;

/**
 * How often the chains' contract states are committed to their files. Between two flushes a
 * state holds its blocks in an open database transaction (a commit per block would cost more
 * than executing an empty block); the chain database, which commits every block, is what makes
 * them durable: after a crash, start-up replays the blocks the state lost.
 */
export const STATE_FLUSH_INTERVAL_MS = 200;

export class BraidNode {
  readonly producer: BlockProducer;
  /** The mempool's admission, `local`, results and SPV proofs (the `commands` port). */
  readonly commands: NodeCommandService;
  /** The node's clock: the system's, moved forward by `braid dev time`. */
  readonly clock: NodeClock;
  private mining: MiningControl | null = null;
  private portsMade: NodePorts | undefined;
  private flushTimer: NodeJS.Timeout | undefined;

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
  ) {
    this.clock = new NodeClock(chainDb);
    this.producer = new BlockProducer({
      version,
      chains,
      blockGasLimit: options.mempool.blockGasLimit,
      nowMicros: () => this.clock.nowMicros(),
      store: (prepared) => importer.storeProduced(prepared),
      leaveOut: (chain, rejected) => importer.leaveOut(chain, rejected),
      onError: (e) =>
        log.error(`catching the chains up failed: ${e instanceof Error ? e.message : String(e)}`),
    });
    this.commands = new NodeCommandService({
      options,
      version,
      chainDb,
      chains,
      producer: this.producer,
      clock: this.clock,
      mining: () => this.mining,
    });
  }

  /** Opens (or creates) the node's databases and starts mining as configured. */
  static open(options: NodeOptions, log: NodeLogger): BraidNode {
    const dir = options.storage.dataDir;
    if (dir !== null) mkdirSync(dir, { recursive: true });
    const path = (file: string) => (dir === null ? ":memory:" : join(dir, file));
    // The network's version as the configuration names it; its genesis payloads are Braid's own.
    const base = findVersionByName(options.network);
    // The explorer's indexes, and development snapshots where the development controls serve.
    const explorer = new ExplorerIndexes();
    const chainDb = new ChainDatabase(path(CHAIN_DB_FILE), base, {
      indexers: [explorer],
      devSnapshots: developmentOnlyProblem(options.network) === null,
    });
    const states: VersionedPactDb[] = [];
    try {
      for (const chainId of allChainIds(base)) {
        states.push(
          dir === null
            ? openMemoryPactDb()
            : openSqlitePactDb(path(stateFile(chainId)), { batchCommits: true }),
        );
      }
      const fresh = chainDb.chainIds().length === 0;
      const version = fresh ? createGenesis(chainDb, states, base) : storedVersion(chainDb, base);
      const context: ChainContext = {
        version,
        networkId: options.network,
        chainDb,
        miner: options.mining.miner,
        blockGasLimit: options.mempool.blockGasLimit,
        commandTimeLimitMs: options.execution.commandTimeLimitMs,
        reward: Decimal.parseLiteral(DEV_BLOCK_REWARD),
      };
      const chains = states.map((state, chainId) => openChain(chainId, state, context));
      const events = new NodeEvents();
      const importer = new BlockImporter({ version, chainDb, chains, log, events });
      replayToCut(importer, chainDb, chains, log);
      const node = new BraidNode(
        options,
        version,
        chainDb,
        chains,
        log,
        fresh,
        events,
        importer,
        explorer,
      );
      node.mining = startMining(options.mining, node.producer, log);
      node.flushTimer = setInterval(() => node.flushStates(), STATE_FLUSH_INTERVAL_MS).unref();
      return node;
    } catch (e) {
      for (const state of states) state.close();
      chainDb.close();
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
    this.mining?.stop();
    this.producer.close();
    const closeStores = () => {
      for (const chain of this.chains) chain.state.close();
      this.chainDb.close();
    };
    if (!this.chainDb.checkpointing) {
      closeStores();
      return Promise.resolve();
    }
    return this.chainDb.checkpointsSettled().then(closeStores);
  }

  /** Commits the contract states' pending blocks to their files. */
  private flushStates(): void {
    try {
      for (const chain of this.chains) chain.state.flush();
    } catch (e) {
      this.log.error(
        `saving the contract state failed: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
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
      mining: this.minesWithNonces
        ? new MiningCoordinator(this.version, this.producer, () => this.clock.nowMicros())
        : null,
      dev: this.devControls(),
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
    return new Map(this.chains.map((chain) => [chain.chainId, chain.head]));
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
  insertBlocks(blocks: readonly Block[]): void {
    this.importer.importForeign(blocks);
  }
}

/**
 * Brings every chain's state to the chain database's cut (replaying the blocks a crash or a
 * deleted state file left out), showing progress on the log.
 */
function replayToCut(
  importer: BlockImporter,
  chainDb: ChainDatabase,
  chains: readonly NodeChain[],
  log: NodeLogger,
): void {
  const cut = chainDb.cut();
  const behind = chains.reduce(
    (sum, chain) => sum + Math.max(0, cut.get(chain.chainId)!.height - chain.head.height),
    0,
  );
  const started = performance.now();
  let replayed = 0;
  importer.adoptCut((chain) => {
    replayed++;
    log.progress(
      `replaying stored blocks: ${replayed} of ${Math.max(behind, replayed)} (chain ${chain.chainId})`,
    );
  });
  if (replayed > 0) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log.progressDone(`replayed ${replayed} stored blocks in ${seconds} s`);
  }
}

/** The chain's state at its last committed block (genesis replayed when it has none). */
function openChain(chainId: number, state: VersionedPactDb, context: ChainContext): NodeChain {
  const db = context.chainDb;
  const latest = state.latestBlock();
  if (latest !== null) {
    const head = db.header(latest.hash);
    if (head === undefined) {
      throw new Error(
        `the state of chain ${chainId} is at a block the chain database does not hold; the data directory is damaged`,
      );
    }
    return new NodeChain(chainId, state, context, head);
  }
  const genesis = genesisHeader(context.version, chainId);
  const chain = new NodeChain(chainId, state, context, genesis);
  chain.replay(genesis);
  return chain;
}
