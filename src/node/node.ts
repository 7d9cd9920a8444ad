/**
 * The node's composition root: opens the chain database and each chain's state, creates the
 * genesis blocks on a fresh data directory (or brings every chain's state to its stored head on
 * reopen), starts the mining mode, and closes everything in reverse. The one place the parts are
 * wired together; the API reaches the node only through the methods here and `events`.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Cut } from "../chain/cut/cut.ts";
import { type Block, ChainDatabase } from "../chain/db/index.ts";
import { genesisHeader } from "../chain/header/genesis.ts";
import { DEVELOPMENT } from "../chain/version/known-versions.ts";
import { allChainIds, type ChainwebVersion } from "../chain/version/version.ts";
import type { ParsedCommand, PublicMeta } from "../command/index.ts";
import { encodeBase64Url } from "../crypto/index.ts";
import { openMemoryPactDb, openSqlitePactDb, type VersionedPactDb } from "../pact/db/index.ts";
import { Decimal } from "../pact/values/index.ts";
import { type ChainContext, ChainNode } from "./chain.ts";
import { NodeClock } from "./clock.ts";
import { DevControls, developmentOnlyProblem } from "./dev/controls.ts";
import { NodeEvents } from "./events.ts";
import { blockContextOf, buyGas } from "./executor/block-executor.ts";
import { DEV_BLOCK_REWARD } from "./genesis/coin-calls.ts";
import { createGenesis, storedVersion } from "./import/genesis-blocks.ts";
import { BlockImporter } from "./import/importer.ts";
import { type LocalOptions, LocalRefusal, runLocal } from "./local.ts";
import type { NodeLogger } from "./logger.ts";
import {
  type AdmissionRules,
  admissionProblem,
  batchRefusal,
  privateAdmissionProblem,
} from "./mempool/admission.ts";
import { MAX_PENDING_COMMANDS } from "./mempool/mempool.ts";
import type { MiningControl } from "./miner/control.ts";
import { MiningCoordinator } from "./miner/coordination.ts";
import { startMining } from "./miner/modes.ts";
import { BlockProducer } from "./miner/producer.ts";
import type { NodeOptions } from "./options.ts";
import type { NodePorts } from "./ports.ts";
import { CommandRefusal } from "./refusals.ts";
import { createOutputProof, proofTargetHeight } from "./spv.ts";

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

/**
 * The deepest `confirmationDepth` on-demand mining makes blocks for (Chainweb's reorg limit):
 * each confirmation is a new height on every chain, 20 blocks, made before `poll` answers. A
 * deeper one is answered from the blocks there are (mine more with `braid dev mine`).
 */
export const MAX_MINED_CONFIRMATIONS = 480;

export class BraidNode {
  readonly producer: BlockProducer;
  /** The node's clock: the system's, moved forward by `braid dev time`. */
  readonly clock: NodeClock;
  private mining: MiningControl | null = null;
  private portsMade: NodePorts | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly minGasPrice: Decimal;

  private constructor(
    readonly options: NodeOptions,
    readonly version: ChainwebVersion,
    readonly chainDb: ChainDatabase,
    readonly chains: readonly ChainNode[],
    readonly log: NodeLogger,
    /** Whether the genesis blocks were made by this start (a fresh data directory). */
    readonly fresh: boolean,
    /** Every stored block: the only bridge to the header stream and `listen`. */
    readonly events: NodeEvents,
    /** The one way blocks are stored and heads moved. */
    readonly importer: BlockImporter,
  ) {
    this.minGasPrice = Decimal.parseLiteral(options.minGasPrice);
    this.clock = new NodeClock(chainDb);
    this.producer = new BlockProducer({
      version,
      chains,
      blockGasLimit: options.blockGasLimit,
      nowMicros: () => this.clock.nowMicros(),
      store: (prepared) => importer.storeProduced(prepared),
      onError: (e) =>
        log.error(`catching the chains up failed: ${e instanceof Error ? e.message : String(e)}`),
    });
  }

  /** Opens (or creates) the node's databases and starts mining as configured. */
  static open(options: NodeOptions, log: NodeLogger): BraidNode {
    const dir = options.dataDir;
    if (dir !== null) mkdirSync(dir, { recursive: true });
    const path = (file: string) => (dir === null ? ":memory:" : join(dir, file));
    const chainDb = new ChainDatabase(path(CHAIN_DB_FILE), DEVELOPMENT);
    const states: VersionedPactDb[] = [];
    try {
      for (const chainId of allChainIds(DEVELOPMENT)) {
        states.push(
          dir === null
            ? openMemoryPactDb()
            : openSqlitePactDb(path(stateFile(chainId)), { batchCommits: true }),
        );
      }
      const fresh = chainDb.chainIds().length === 0;
      const version = fresh
        ? createGenesis(chainDb, states, options.network)
        : storedVersion(chainDb);
      const context: ChainContext = {
        version,
        networkId: options.network,
        chainDb,
        miner: options.miner,
        blockGasLimit: options.blockGasLimit,
        reward: Decimal.parseLiteral(DEV_BLOCK_REWARD),
      };
      const chains = states.map((state, chainId) => openChain(chainId, state, context));
      const events = new NodeEvents();
      const importer = new BlockImporter({ version, chainDb, chains, log, events });
      replayToCut(importer, chainDb, chains, log);
      const node = new BraidNode(options, version, chainDb, chains, log, fresh, events, importer);
      node.mining = startMining(options, node.producer, log);
      node.flushTimer = setInterval(() => node.flushStates(), STATE_FLUSH_INTERVAL_MS).unref();
      return node;
    } catch (e) {
      for (const state of states) state.close();
      chainDb.close();
      throw e;
    }
  }

  /** Resolves once the databases' background work (a checkpoint under way) has ended. */
  settled(): Promise<void> {
    return this.chainDb.checkpointsSettled();
  }

  /** Stops mining and closes the databases (after {@link settled}, for a clean end). */
  close(): void {
    clearInterval(this.flushTimer);
    this.mining?.stop();
    this.producer.close();
    for (const chain of this.chains) chain.state.close();
    this.chainDb.close();
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
      heads: this,
      events: this.events,
      clock: this.clock,
      commands: this,
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

  /** Whether the mining mode makes blocks as requests need them (on-demand). */
  get minesOnRequest(): boolean {
    return this.mining?.makesBlocksOnRequest ?? false;
  }

  /** Whether every block needs its nonce search (pow). */
  get minesWithNonces(): boolean {
    return this.mining?.searchesNonces ?? false;
  }

  /** Tells the mining mode that commands wait on `chainId`. */
  commandsArrived(chainId: number): void {
    this.mining?.commandsArrived(chainId);
  }

  /**
   * Runs `check` (parsing and verifying commands for `chainId` off the event loop) while the
   * mining mode knows that commands are on their way, so that on-demand mining lets them join
   * the block it is about to make.
   */
  async admitting<T>(chainId: number, check: () => Promise<T>): Promise<T> {
    const mining = this.mining;
    mining?.admissionStarted(chainId);
    try {
      return await check();
    } finally {
      mining?.admissionEnded(chainId);
    }
  }

  /** Mines until the chain's head is `height` (on-demand mode: confirmations asked for now). */
  mineTo(chainId: number, height: number): void {
    if (!this.minesOnRequest) return;
    const chain = this.chains[chainId]!;
    while (chain.head.height < height) this.producer.mine(chainId);
    this.producer.level();
  }

  /** The mempool's rules for a chain. */
  admissionRules(chainId: number): AdmissionRules {
    return {
      networkId: this.options.network,
      chainId,
      blockGasLimit: this.options.blockGasLimit,
      minGasPrice: this.minGasPrice,
    };
  }

  /**
   * Admits verified commands to a chain's mempool, all or none: each is checked by the mempool's
   * rules and by buying its gas on the latest state. Throws {@link CommandRefusal} naming every
   * refused command. Returns their request keys.
   */
  submit(chainId: number, commands: readonly ParsedCommand[]): string[] {
    const chain = this.chains[chainId]!;
    const rules = this.admissionRules(chainId);
    const now = this.clock.nowSeconds();
    const refusals: { index: number; hash: string; reason: string }[] = [];
    const parent = chain.head;
    const block = blockContextOf(chain.environment(parent));
    commands.forEach((command, index) => {
      const context = { now, isOnChain: () => chain.isOnChain(command.hashBytes) };
      let reason =
        command.payload.meta.kind === "private"
          ? privateAdmissionProblem(command, rules, context)
          : admissionProblem(command, rules, context);
      if (
        reason === null &&
        command.payload.meta.kind === "public" &&
        !chain.mempool.has(command.hash)
      ) {
        const meta = command.payload.meta as PublicMeta;
        const bought = buyGas(chain.state, block, command, meta.gasLimit, "local");
        if (bought.kind === "rejected") reason = `Attempt to buy gas failed with: ${bought.reason}`;
      }
      if (reason !== null) refusals.push({ index, hash: command.hash, reason });
    });
    if (refusals.length > 0) throw new CommandRefusal(batchRefusal(refusals));
    if (!chain.mempool.hasRoomFor(commands.length)) {
      throw new CommandRefusal(
        `The mempool of chain ${chainId} is full (${MAX_PENDING_COMMANDS} commands); send again after the next block`,
      );
    }
    chain.mempool.add(commands);
    this.commandsArrived(chainId);
    return commands.map((c) => c.hash);
  }

  /** `local` on a chain: the JSON text of the result. Throws {@link LocalRefusal}. */
  local(chainId: number, command: ParsedCommand, options: LocalOptions): string {
    const chain = this.chains[chainId]!;
    return runLocal(
      chain,
      command,
      options,
      this.admissionRules(chainId),
      (height) => {
        const header = chain.headerAt(height);
        if (header === undefined)
          throw new LocalRefusal(`chain ${chainId} has no block at height ${height}`);
        return header;
      },
      this.clock.nowSeconds(),
    );
  }

  /**
   * The result of a command on a chain, or null when it is not (yet) in a block of the chain's
   * branch with `confirmationDepth` blocks on top. In on-demand mode, a result that only lacks
   * confirmations, at most {@link MAX_MINED_CONFIRMATIONS}, gets them mined at once.
   */
  result(chainId: number, hashBytes: Uint8Array, confirmationDepth = 0): string | null {
    const chain = this.chains[chainId]!;
    if (
      confirmationDepth > 0 &&
      confirmationDepth <= MAX_MINED_CONFIRMATIONS &&
      this.minesOnRequest
    ) {
      const found = chain.result(hashBytes, 0);
      if (found !== null) {
        const height = this.chainDb
          .transactionLocations(hashBytes)
          .map((l) => this.chainDb.link(l.blockHash))
          .find(
            (l) =>
              l !== undefined &&
              l.chainId === chainId &&
              this.chainDb.isAncestor(l.hash, chain.head.hash),
          )?.height;
        if (height !== undefined) this.mineTo(chainId, height + confirmationDepth);
      }
    }
    return chain.result(hashBytes, confirmationDepth);
  }

  /**
   * The SPV proof (wire form) that the command `requestKey` of chain `chainId` ran, for a `cont`
   * on `targetChainId` (Chainweb's `/pact/spv`). In on-demand mode the blocks the proof needs are
   * mined at once. Throws {@link SpvRefusal}.
   */
  spvProof(chainId: number, requestKey: Uint8Array, targetChainId: number): string {
    const location = this.chains[chainId]!.locate(requestKey, 0);
    const target = this.chains[targetChainId]!;
    if (location !== null && this.minesOnRequest) {
      const height = proofTargetHeight(this.version, chainId, targetChainId, location);
      if (target.head.height < height) {
        this.producer.ensureHeight(targetChainId, height);
        this.producer.level();
      }
    }
    return createOutputProof({
      version: this.version,
      chainDb: this.chainDb,
      sourceChain: chainId,
      targetChain: targetChainId,
      requestKey: encodeBase64Url(requestKey),
      location,
      targetHead: target.head,
    });
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
  chains: readonly ChainNode[],
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
function openChain(chainId: number, state: VersionedPactDb, context: ChainContext): ChainNode {
  const db = context.chainDb;
  const latest = state.latestBlock();
  if (latest !== null) {
    const head = db.header(latest.hash);
    if (head === undefined) {
      throw new Error(
        `the state of chain ${chainId} is at a block the chain database does not hold; the data directory is damaged`,
      );
    }
    return new ChainNode(chainId, state, context, head);
  }
  const genesis = genesisHeader(context.version, chainId);
  const chain = new ChainNode(chainId, state, context, genesis);
  chain.replay(genesis);
  return chain;
}
