/**
 * The node's command service (the `commands` port): the mempool's admission of commands,
 * `local`, results by request key and SPV proofs. Under on-demand mining it makes the blocks a
 * request needs (confirmations, an SPV proof's target) before answering.
 */
import { equalBytes } from "../../chain/bytes.ts";
import type { ChainDatabase } from "../../chain/db/index.ts";
import type { ChainwebVersion } from "../../chain/version/version.ts";
import type { ParsedCommand, PublicMeta } from "../../command/index.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import type { BlockContext } from "../../execution/index.ts";
import { Decimal } from "../../pact/values/index.ts";
import type { NodeClock } from "../clock.ts";
import type { NodeEvents } from "../events.ts";
import { blockContextOf, transactionText } from "../executor/block/block-executor.ts";
import {
  failureError,
  type LocalAnswer,
  type LocalRequest,
} from "../executor/contract-executor.ts";
import { LocalBusy, type LocalOptions, LocalRefusal, localHeight } from "../executor/local.ts";
import type { NodeExecutors } from "../executor/node-executors.ts";
import {
  type AdmissionRules,
  admissionProblem,
  batchRefusal,
  privateAdmissionProblem,
} from "../mempool/admission.ts";
import { MAX_PENDING_COMMANDS } from "../mempool/mempool.ts";
import type { MiningControl } from "../miner/control.ts";
import type { BlockProducer } from "../miner/producer.ts";
import type { NodeChain } from "../node-chain.ts";
import type { NodeOptions } from "../options.ts";
import { CommandRefusal } from "../refusals.ts";
import { createOutputProof, proofTargetHeight } from "../spv.ts";
import type { StorageGuard } from "../storage-guard.ts";
import { storedMiner } from "../stored-payload.ts";
import { profileAnswer } from "./profile-answer.ts";

const utf8 = new TextDecoder();

/**
 * The deepest `confirmationDepth` on-demand mining makes blocks for (Chainweb's reorg limit):
 * each confirmation is a new height on every chain, 20 blocks, made before `poll` answers. A
 * deeper one is answered from the blocks there are (mine more with `braid dev mine`).
 */
export const MAX_MINED_CONFIRMATIONS = 480;

/** Commands: admitting them, running them locally, their results and SPV proofs. */
export interface CommandService {
  /**
   * Admits verified commands to a chain's mempool (all or none); their request keys. `bought`:
   * what {@link buyGasAhead} found for them, taken instead of buying their gas again.
   */
  submit(chainId: number, commands: readonly ParsedCommand[], bought?: GasBoughtAhead): string[];
  /**
   * Buys the gas of commands for `chainId` on the latest state, as `submit` does, before their
   * signatures are known good (while they are verified): the refusal each would get, for those
   * the admission rules let through so far; nothing while writes are refused (`submit` refuses
   * them). Throws `StorageUnavailable` (a 503) for a failure of the disk met on the way.
   */
  buyGasAhead(chainId: number, commands: readonly ParsedCommand[]): GasBoughtAhead;
  /** Runs `check` while the mining mode knows commands for `chainId` are on their way. */
  admitting<T>(chainId: number, check: () => Promise<T>): Promise<T>;
  /**
   * `local` of a command, or of a request body's text (parsed and verified where it runs, its
   * refusals a {@link LocalRefusal} with the API's message): the JSON text of its answer.
   */
  local(chainId: number, command: ParsedCommand | string, options: LocalOptions): Promise<string>;
  /**
   * The gas profile of the command with request key `requestKey` in a block of the chain's
   * current branch, executed again at that block's state ("Gas profiles" in
   * docs/gas.md): JSON text, or null when no such block holds it. Refusals as `local`'s.
   */
  profile(chainId: number, requestKey: Uint8Array): Promise<string | null>;
  /** The JSON text of a command's result, or null when it is not (yet) confirmed. */
  result(chainId: number, hashBytes: Uint8Array, confirmationDepth?: number): string | null;
  /** An SPV proof of a command's output for another chain (base64url of Chainweb's JSON). */
  spvProof(chainId: number, requestKey: Uint8Array, targetChainId: number): string;
  /** Whether blocks are made as requests need them (a `send` may wait for its block). */
  readonly minesOnRequest: boolean;
}

/** The refusal (null: none) of each command whose gas was bought ahead of its admission. */
export type GasBoughtAhead = ReadonlyMap<ParsedCommand, string | null>;

/** Gas purchases made for the admission of commands: each one's refusal (null: none). */
type GasPurchases = Map<ParsedCommand, string | null>;

/** What became of the commands a peer inserted ({@link NodeCommandService.insertEach}). */
export interface InsertOutcome {
  /** The request keys added to the mempool. */
  readonly added: readonly string[];
  /** How many were pending already (or twice in the batch). */
  readonly alreadyPending: number;
  /** Those the admission rules refused, with `send`'s reason. */
  readonly refused: readonly {
    readonly hash: string;
    readonly reason: string;
  }[];
  /** How many found the mempool full ({@link MAX_PENDING_COMMANDS}). */
  readonly overflow: number;
}

export interface CommandServiceParts {
  readonly options: Pick<NodeOptions, "network" | "mempool" | "execution">;
  readonly version: ChainwebVersion;
  readonly chainDb: ChainDatabase;
  readonly chains: readonly NodeChain[];
  readonly producer: BlockProducer;
  readonly clock: NodeClock;
  /** Told of commands admitted (`pending`). */
  readonly events: Pick<NodeEvents, "emit">;
  /** The mining mode, once started. */
  readonly mining: () => MiningControl | null;
  /** Who runs `local`: the execution threads, or this thread (node-executors.ts). */
  readonly executors: Pick<NodeExecutors, "local">;
  /** Whether writes work: `submit` is refused while they fail, a disk failure met is refused. */
  readonly storage: Pick<StorageGuard, "write" | "refusal" | "failed">;
}

export class NodeCommandService implements CommandService {
  private readonly minGasPrice: Decimal;

  constructor(private readonly parts: CommandServiceParts) {
    this.minGasPrice = Decimal.parseLiteral(parts.options.mempool.minGasPrice);
  }

  get minesOnRequest(): boolean {
    return this.parts.mining()?.makesBlocksOnRequest ?? false;
  }

  /** Tells the mining mode that commands wait on `chainId` (node.ts: each `pending` event). */
  commandsArrived(chainId: number): void {
    this.parts.mining()?.commandsArrived(chainId);
  }

  /**
   * Runs `check` (parsing and verifying commands for `chainId` off the event loop) while the
   * mining mode knows that commands are on their way, so that on-demand mining lets them join
   * the block it is about to make.
   */
  async admitting<T>(chainId: number, check: () => Promise<T>): Promise<T> {
    const mining = this.parts.mining();
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
    const chain = this.parts.chains[chainId]!;
    while (chain.head.height < height) this.parts.producer.mine(chainId);
    this.parts.producer.level();
  }

  /** The mempool's rules for a chain. */
  admissionRules(chainId: number): AdmissionRules {
    return {
      networkId: this.parts.options.network,
      chainId,
      blockGasLimit: this.parts.options.mempool.blockGasLimit,
      minGasPrice: this.minGasPrice,
      entityKeys: this.parts.options.mempool.entityKeys,
    };
  }

  /**
   * Admits verified commands to a chain's mempool, all or none: each is checked by the mempool's
   * rules and by buying its gas on the latest state. Throws {@link CommandRefusal} naming every
   * refused command, or `StorageUnavailable` (a 503) while writes fail. Returns their request keys.
   */
  submit(chainId: number, commands: readonly ParsedCommand[], bought?: GasBoughtAhead): string[] {
    return this.parts.storage.write(() => this.admit(chainId, commands, new Map(bought)));
  }

  buyGasAhead(chainId: number, commands: readonly ParsedCommand[]): GasBoughtAhead {
    const bought: GasPurchases = new Map();
    if (this.parts.storage.failed) return bought;
    return this.parts.storage.write(() => {
      // The admission's own checks, for the gas purchases they make.
      const refusalOf = this.refusals(this.parts.chains[chainId]!, true, bought);
      for (const command of commands) refusalOf(command);
      return bought;
    });
  }

  private admit(
    chainId: number,
    commands: readonly ParsedCommand[],
    bought: GasPurchases,
  ): string[] {
    const chain = this.parts.chains[chainId]!;
    const refusalOf = this.refusals(chain, true, bought);
    const refusals: { index: number; hash: string; reason: string }[] = [];
    commands.forEach((command, index) => {
      const reason = refusalOf(command);
      if (reason !== null) refusals.push({ index, hash: command.hash, reason });
    });
    if (refusals.length > 0) throw new CommandRefusal(batchRefusal(refusals));
    if (!chain.mempool.hasRoomFor(commands.length)) {
      throw new CommandRefusal(
        `The mempool of chain ${chainId} is full (${MAX_PENDING_COMMANDS} commands); send again after the next block`,
      );
    }
    chain.mempool.add(commands);
    this.parts.events.emit("pending", chainId);
    return commands.map((c) => c.hash);
  }

  /**
   * Admits verified commands from a peer (mempool `insert`, mempool sync) each on its own, as
   * Chainweb's checked insert does: a command `send` would refuse is left out with its reason,
   * one already pending is left as it is, and once the mempool is full the rest are left out.
   * Private commands are refused: they belong to the node that took them. Throws
   * `StorageUnavailable` (a 503) while writes fail.
   */
  insertEach(chainId: number, commands: readonly ParsedCommand[]): InsertOutcome {
    return this.admitEach(chainId, commands, false);
  }

  /**
   * Admits again, each on its own, commands this node accepted before it restarted (its mempool
   * journal): as {@link insertEach}, but private commands are admitted as `private` admits them.
   */
  readmit(chainId: number, commands: readonly ParsedCommand[]): InsertOutcome {
    return this.admitEach(chainId, commands, true);
  }

  private admitEach(
    chainId: number,
    commands: readonly ParsedCommand[],
    privateAllowed: boolean,
  ): InsertOutcome {
    return this.parts.storage.write(() => {
      const chain = this.parts.chains[chainId]!;
      const refusalOf = this.refusals(chain, privateAllowed);
      const added: ParsedCommand[] = [];
      const refused: { hash: string; reason: string }[] = [];
      let alreadyPending = 0;
      let overflow = 0;
      const taken = new Set<string>();
      for (const command of commands) {
        if (chain.mempool.has(command.hash) || taken.has(command.hash)) {
          alreadyPending++;
          continue;
        }
        const reason = refusalOf(command);
        if (reason !== null) refused.push({ hash: command.hash, reason });
        else if (added.length >= chain.mempool.room) overflow++;
        else {
          added.push(command);
          taken.add(command.hash);
        }
      }
      if (added.length > 0) {
        chain.mempool.add(added);
        this.parts.events.emit("pending", chainId);
      }
      return {
        added: added.map((c) => c.hash),
        alreadyPending,
        refused,
        overflow,
      };
    });
  }

  /**
   * Why the mempool refuses a command on `chain` now, or null: the admission rules (the private
   * ones for private metadata where `privateAllowed`), then buying its gas on the latest state
   * (skipped for a command already pending; taken from `bought` when it was bought before, and
   * added to it when bought now).
   */
  private refusals(chain: NodeChain, privateAllowed: boolean, bought: GasPurchases = new Map()) {
    const rules = this.admissionRules(chain.chainId);
    const now = this.parts.clock.nowSeconds();
    const block = blockContextOf(chain.environment(chain.head));
    return (command: ParsedCommand): string | null => {
      const context = {
        now,
        isOnChain: () => chain.isOnChain(command.hashBytes),
      };
      const reason =
        privateAllowed && command.payload.meta.kind === "private"
          ? privateAdmissionProblem(command, rules, context)
          : admissionProblem(command, rules, context);
      if (reason !== null || command.payload.meta.kind !== "public") return reason;
      if (chain.mempool.has(command.hash)) return null;
      let refusal = bought.get(command);
      if (refusal === undefined) {
        refusal = gasRefusal(chain, block, command);
        bought.set(command, refusal);
      }
      return refusal;
    };
  }

  /**
   * `local` on a chain: the JSON text of the result, from the execution threads when the node
   * has them. Throws {@link LocalRefusal}, {@link LocalBusy}, or `StorageUnavailable` (a 503)
   * for a failure of the disk met on the way.
   */
  async local(
    chainId: number,
    command: ParsedCommand | string,
    options: LocalOptions,
  ): Promise<string> {
    return this.onExecutors((timeLimitMs) =>
      this.localRequest(chainId, command, options, timeLimitMs),
    );
  }

  async profile(chainId: number, requestKey: Uint8Array): Promise<string | null> {
    const chain = this.parts.chains[chainId]!;
    const { chainDb } = this.parts;
    const found = chainDb
      .transactionLocations(requestKey)
      .map((location) => ({ location, header: chainDb.header(location.blockHash)! }))
      .find(({ header }) => {
        const onBranch = header.chainId === chainId ? chain.headerAt(header.height) : undefined;
        return onBranch !== undefined && equalBytes(onBranch.hash, header.hash);
      });
    if (found === undefined) return null;
    const { header, location } = found;
    const parent = header.height === 0 ? undefined : chain.headerAt(header.height - 1);
    if (parent === undefined) {
      throw new LocalRefusal("a genesis block's transactions buy no gas: they have no profile");
    }
    const payload = chainDb.payload(header.payloadHash)!;
    const stored = payload.transactions[location.position]!;
    const { networkId, blockGasLimit } = this.admissionRules(chainId);
    const text = await this.onExecutors((timeLimitMs) => ({
      chainId,
      body: utf8.decode(stored.transaction),
      verifySignatures: false,
      preflight: false,
      parent,
      rules: { networkId, chainId, blockGasLimit },
      nowSeconds: this.parts.clock.nowSeconds(),
      timeLimitMs,
      profile: {
        before: payload.transactions
          .slice(0, location.position)
          .map((t) => utf8.decode(t.transaction)),
        miner: storedMiner(header, payload),
      },
    }));
    return profileAnswer(header, location.position, utf8.decode(stored.output), text);
  }

  /** Runs a call on the executors: the JSON text of its answer, or its refusal thrown. */
  private async onExecutors(request: (timeLimitMs: number) => LocalRequest): Promise<string> {
    let answer: LocalAnswer;
    try {
      answer = await this.parts.executors.local(request);
    } catch (e) {
      throw this.parts.storage.refusal(e);
    }
    switch (answer.kind) {
      case "answer":
        return answer.text;
      case "refused":
        throw new LocalRefusal(answer.message);
      case "busy":
        throw new LocalBusy(answer.message);
      case "unserved":
        // The node's thread resolves and runs a call in one turn: it is never left unserved.
        throw new Error("a local call was left unserved");
      case "failed":
        throw this.parts.storage.refusal(failureError(answer));
    }
  }

  /** A `local` call as the executors take it, its parent block resolved now. */
  private localRequest(
    chainId: number,
    command: ParsedCommand | string,
    options: LocalOptions,
    timeLimitMs: number,
  ): LocalRequest {
    const chain = this.parts.chains[chainId]!;
    const height = localHeight(chainId, chain.head.height, options.rewindDepth);
    const parent = chain.headerAt(height);
    if (parent === undefined) {
      throw new LocalRefusal(`chain ${chainId} has no block at height ${height}`);
    }
    const { networkId, blockGasLimit } = this.admissionRules(chainId);
    return {
      chainId,
      body: typeof command === "string" ? command : transactionText(command),
      verifySignatures: options.verifySignatures ?? true,
      preflight: options.preflight,
      parent,
      rules: { networkId, chainId, blockGasLimit },
      nowSeconds: this.parts.clock.nowSeconds(),
      timeLimitMs,
    };
  }

  /**
   * The result of a command on a chain, or null when it is not (yet) in a block of the chain's
   * branch with `confirmationDepth` blocks on top. In on-demand mode, a result that only lacks
   * confirmations, at most {@link MAX_MINED_CONFIRMATIONS}, gets them mined at once.
   */
  result(chainId: number, hashBytes: Uint8Array, confirmationDepth = 0): string | null {
    const chain = this.parts.chains[chainId]!;
    if (
      confirmationDepth > 0 &&
      confirmationDepth <= MAX_MINED_CONFIRMATIONS &&
      this.minesOnRequest
    ) {
      const found = chain.result(hashBytes, 0);
      if (found !== null) {
        const height = this.parts.chainDb
          .transactionLocations(hashBytes)
          .map((l) => this.parts.chainDb.link(l.blockHash))
          .find(
            (l) =>
              l !== undefined &&
              l.chainId === chainId &&
              this.parts.chainDb.isAncestor(l.hash, chain.head.hash),
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
    const location = this.parts.chains[chainId]!.locate(requestKey, 0);
    const target = this.parts.chains[targetChainId]!;
    if (location !== null && this.minesOnRequest) {
      const height = proofTargetHeight(this.parts.version, chainId, targetChainId, location);
      if (target.head.height < height) {
        this.parts.producer.ensureHeight(targetChainId, height);
        this.parts.producer.level();
      }
    }
    return createOutputProof({
      version: this.parts.version,
      chainDb: this.parts.chainDb,
      sourceChain: chainId,
      targetChain: targetChainId,
      requestKey: encodeBase64Url(requestKey),
      location,
      targetHead: target.head,
    });
  }
}

/** The mempool's refusal of a public command whose gas cannot be bought on `block`, or null. */
function gasRefusal(chain: NodeChain, block: BlockContext, command: ParsedCommand): string | null {
  const meta = command.payload.meta as PublicMeta;
  const problem = chain.state.gasPurchaseProblem(block, command, meta.gasLimit);
  return problem === null ? null : `Attempt to buy gas failed with: ${problem}`;
}
