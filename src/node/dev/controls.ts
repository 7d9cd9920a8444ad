/**
 * Development controls (`/braid/dev/…`, `braid dev …`, docs/devtools.md), for development
 * networks only:
 * - `mine`: N blocks on chosen chains now, with the neighbours braiding needs;
 * - `advanceTime`: the node's clock moved forward (clock.ts);
 * - `snapshot` / `revert`: the heads of every chain saved, and later made the heads again; the
 *   blocks above them stay stored but are abandoned (never a best head again: chain database),
 *   each chain's state is rewound (the fork machinery), the mempool keeps only what the
 *   snapshot knew;
 * - `fund`: a `coin.transfer-create` from the faucet account `sender00`, signed by the node
 *   with its published development key.
 * The controls run one at a time (a mine of many blocks yields to requests between heights).
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import type { ChainDatabase } from "../../chain/db/index.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import {
  encodeCommandPayload,
  type ParsedCommand,
  parseCommand,
  signCommand,
} from "../../command/index.ts";
import { decodeHex } from "../../crypto/index.ts";
import { Decimal, JsonNumber, parseJson } from "../../pact/values/index.ts";
import type { NodeClock } from "../clock.ts";
import type { NodeEvents } from "../events.ts";
import { DEV_ACCOUNTS } from "../genesis/accounts.ts";
import type { BlockImporter } from "../import/importer.ts";
import type { NodeLogger } from "../logger.ts";
import type { BlockProducer } from "../miner/producer.ts";
import { cutOf, type NodeChain } from "../node-chain.ts";
import type { NodeCommandService } from "../services/command-service.ts";
import type { StorageGuard } from "../storage-guard.ts";

/** The parts of the node the controls work with (the composition root hands them over). */
export interface ControlledNode {
  readonly chains: readonly NodeChain[];
  readonly chainDb: ChainDatabase;
  readonly clock: NodeClock;
  readonly producer: BlockProducer;
  readonly importer: BlockImporter;
  readonly events: NodeEvents;
  readonly log: NodeLogger;
  readonly options: { readonly network: string };
  readonly minesWithNonces: boolean;
  readonly storage: Pick<StorageGuard, "write">;
  readonly commands: Pick<
    NodeCommandService,
    "submit" | "local" | "commandsArrived" | "minesOnRequest"
  >;
}

/** The networks the controls serve: a development network has no value to protect. */
export const DEVELOPMENT_NETWORKS: ReadonlySet<string> = new Set(["development"]);
/** The most blocks one `mine` makes on each chain asked for. */
export const MAX_MINE_BLOCKS = 10_000;
/** How long `mine` works before it lets the event loop answer other requests (ms). */
export const MINE_SLICE_MS = 10;
/** The most keys of a funded account's keyset. */
export const MAX_FUND_KEYS = 32;
/** The largest amount one `fund` sends per chain, in KDA (the faucet holds 100,000,000). */
export const MAX_FUND_AMOUNT = 1_000_000;
const MAX_AMOUNT = Decimal.fromInteger(BigInt(MAX_FUND_AMOUNT));
/** The keyset predicates `fund` accepts. */
export const FUND_PREDICATES = ["keys-all", "keys-any", "keys-2"] as const;
/** How many recent snapshots remember the mempool they saw (older ones revert to an empty one). */
export const MAX_REMEMBERED_MEMPOOLS = 64;
/** The faucet: the first development account. */
export const FAUCET = DEV_ACCOUNTS[0]!;
/** Gas limit of a funding transfer (a `transfer-create` uses well under it). */
export const FUND_GAS_LIMIT = 5_000;
/** How long `fund` waits for on-demand mining to make the transfers' blocks. */
export const FUND_WAIT_MS = 10_000;
/** Time to live of a funding transfer, in seconds. */
export const FUND_TTL_SECONDS = 3_600;

/** A control the node refuses (a 400 with this message). */
export class DevControlRefusal extends Error {
  override readonly name = "DevControlRefusal";
}

/** Why the controls are refused on `network`, or null on a development network. */
export function developmentOnlyProblem(network: string): string | null {
  return DEVELOPMENT_NETWORKS.has(network)
    ? null
    : `development controls are refused on ${JSON.stringify(network.slice(0, 64))}: they serve development networks only (${[...DEVELOPMENT_NETWORKS].join(", ")})`;
}

/** What `revert` did. */
export interface RevertOutcome {
  readonly heads: ReadonlyMap<number, BlockHeader>;
  /** Blocks left behind by this revert (kept, listed, never a best head again). */
  readonly orphaned: number;
}

/** A `fund` request, already checked for form (see {@link checkFundRequest}). */
export interface FundRequest {
  readonly account: string;
  readonly keys: readonly string[];
  readonly pred: (typeof FUND_PREDICATES)[number];
  /** Decimal text with a fraction ("1000.0"). */
  readonly amount: string;
  readonly chains: readonly number[];
}

export class DevControls {
  private readonly mempools = new Map<number, ReadonlyMap<number, ReadonlySet<string>>>();
  private queue: Promise<unknown> = Promise.resolve();
  private nonces = 0;

  constructor(private readonly node: ControlledNode) {
    const problem = developmentOnlyProblem(node.options.network);
    if (problem !== null) throw new DevControlRefusal(problem);
  }

  /**
   * Makes `blocks` more blocks on each of `chains`, one height at a time, mining first what the
   * neighbours need (braiding), each chain's commands executed by the node's executors (as
   * on-demand mining does), in slices of {@link MINE_SLICE_MS} between which the event loop
   * answers other requests. Stops early once `stop` aborts (its client went away). Resolves with
   * the heads' heights of the chains asked for.
   */
  mine(
    blocks: number,
    chains: readonly number[],
    stop?: AbortSignal,
  ): Promise<Map<number, number>> {
    if (this.node.minesWithNonces) {
      throw new DevControlRefusal(
        "mine is for on-demand and interval mining: in pow mode every block needs its nonce search",
      );
    }
    if (!Number.isSafeInteger(blocks) || blocks < 1 || blocks > MAX_MINE_BLOCKS) {
      throw new DevControlRefusal(
        `blocks must be an integer from 1 to ${MAX_MINE_BLOCKS}, got ${blocks}`,
      );
    }
    this.checkChains(chains);
    return this.serial(async () => {
      const { producer } = this.node;
      const start = new Map(chains.map((c) => [c, this.node.chains[c]!.head.height]));
      // The first slice starts with a turn, where a client gone while the control waited is seen.
      let sliceStart = Number.NEGATIVE_INFINITY;
      mining: for (let step = 1; step <= blocks; step++) {
        for (const chainId of chains) {
          if (performance.now() - sliceStart >= MINE_SLICE_MS) {
            await nextTurn();
            if (stop?.aborted === true) {
              this.node.log.info(`mine stopped at step ${step} of ${blocks}: its client went away`);
              break mining;
            }
            sliceStart = performance.now();
          }
          await producer.mineTo(chainId, start.get(chainId)! + step);
        }
      }
      if (this.node.commands.minesOnRequest) producer.level();
      return new Map(chains.map((c) => [c, this.node.chains[c]!.head.height]));
    });
  }

  /** Moves the node's clock `seconds` forward; resolves with the new offset. */
  advanceTime(seconds: number): Promise<number> {
    return this.serial(() => {
      try {
        this.node.clock.advance(seconds);
      } catch (e) {
        throw new DevControlRefusal((e as Error).message);
      }
      this.node.log.info(
        `clock moved ${seconds} s forward (now ${this.node.clock.offsetSeconds} s ahead)`,
      );
      return this.node.clock.offsetSeconds;
    });
  }

  /** Saves the heads of every chain (and which commands wait in the mempools); its id. */
  snapshot(): Promise<number> {
    return this.serial(() => {
      const { chains, chainDb } = this.node;
      const id = chainDb.saveSnapshot(cutOf(chains));
      const pending = new Map<number, ReadonlySet<string>>();
      for (const chain of chains) {
        if (chain.mempool.size > 0) {
          pending.set(chain.chainId, new Set(chain.mempool.commands().map((c) => c.hash)));
        }
      }
      this.mempools.set(id, pending);
      for (const old of this.mempools.keys()) {
        if (this.mempools.size <= MAX_REMEMBERED_MEMPOOLS) break;
        this.mempools.delete(old);
      }
      return id;
    });
  }

  /**
   * Makes snapshot `id`'s heads the heads again: the blocks above them are abandoned (stored,
   * listed, never a best head again: the next blocks extend the snapshot's heads however heavy
   * the abandoned branch is), each chain's state is rewound, and each mempool keeps only the
   * commands that were pending when the snapshot was taken. Later snapshots are deleted.
   */
  revert(id: number): Promise<RevertOutcome> {
    return this.serial(() => {
      const { chains, chainDb, clock } = this.node;
      const latest = Math.max(...chains.map((c) => c.head.creationTime));
      const reverted = chainDb.revertToSnapshot(id);
      if (reverted === undefined) {
        throw new DevControlRefusal(
          `there is no snapshot ${id} (a revert deletes later snapshots)`,
        );
      }
      // New blocks get times after every block made so far, so none repeats an abandoned one.
      clock.notBefore(latest + 1);
      const known = this.mempools.get(id) ?? new Map<number, ReadonlySet<string>>();
      this.node.importer.moveTo(reverted.heads, (chain) => ({
        kind: "keep-only",
        pending: known.get(chain.chainId) ?? new Set<string>(),
      }));
      for (const chain of chains) {
        if (chain.mempool.size > 0) this.node.commands.commandsArrived(chain.chainId);
      }
      for (const later of this.mempools.keys()) if (later > id) this.mempools.delete(later);
      this.node.log.info(`reverted to snapshot ${id}: ${reverted.abandoned} blocks orphaned`);
      return { heads: reverted.heads, orphaned: reverted.abandoned };
    });
  }

  /**
   * Sends `amount` KDA from the faucet to `account` (created with the keyset `keys`/`pred` when
   * new) on each chain asked for, each transfer checked by a preflight first. Resolves with the
   * request keys by chain; in on-demand mode once their blocks are made (at most
   * {@link FUND_WAIT_MS} later).
   */
  fund(request: FundRequest): Promise<Map<number, string>> {
    this.checkChains(request.chains);
    return this.serial(async () => {
      const commands: (readonly [number, ParsedCommand])[] = [];
      for (const chainId of request.chains) {
        const command = this.fundingCommand(request, chainId);
        const preflight = JSON.parse(
          await this.node.commands.local(chainId, command, {
            preflight: true,
            rewindDepth: 0n,
          }),
        ).preflightResult.result;
        if (preflight.status !== "success") {
          throw new DevControlRefusal(
            `funding ${request.account} on chain ${chainId} would fail: ${preflight.error?.message ?? "unknown error"}`,
          );
        }
        commands.push([chainId, command]);
      }
      const mined = this.node.commands.minesOnRequest
        ? this.blocksHolding(commands.map(([, command]) => command.hash))
        : Promise.resolve();
      for (const [chainId, command] of commands) this.node.commands.submit(chainId, [command]);
      await mined;
      return new Map(commands.map(([chainId, command]) => [chainId, command.hash]));
    });
  }

  /**
   * Resolves once blocks hold every one of the request keys, or after {@link FUND_WAIT_MS}
   * (a command left out of its block is never announced).
   */
  private blocksHolding(requestKeys: readonly string[]): Promise<void> {
    const { events } = this.node;
    const waiting = new Set(requestKeys);
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        events.off("block", onBlock);
        resolve();
      };
      const onBlock = (_chainId: number, block: { readonly requestKeys: readonly string[] }) => {
        for (const key of block.requestKeys) waiting.delete(key);
        if (waiting.size === 0) finish();
      };
      const timer = setTimeout(finish, FUND_WAIT_MS);
      events.on("block", onBlock);
    });
  }

  private fundingCommand(request: FundRequest, chainId: number): ParsedCommand {
    const data = JSON.stringify({
      account: request.account,
      guard: { keys: request.keys, pred: request.pred },
      amount: request.amount,
    });
    const payload = {
      payload: {
        kind: "exec" as const,
        code: '(coin.transfer-create "sender00" (read-msg "account") (read-keyset "guard") (read-decimal "amount"))',
        data: parseJson(data),
      },
      meta: {
        kind: "public" as const,
        creationTime: Math.floor(this.node.clock.nowSeconds()) - 1,
        ttl: FUND_TTL_SECONDS,
        gasLimit: FUND_GAS_LIMIT,
        chainId: String(chainId),
        gasPrice: new JsonNumber("0.00000001"),
        sender: FAUCET.name,
      },
      signers: [
        {
          pubKey: FAUCET.publicKey,
          scheme: null,
          addr: null,
          clist: [
            { name: "coin.GAS", args: [] },
            {
              name: "coin.TRANSFER",
              args: [FAUCET.name, request.account, new JsonNumber(request.amount)],
            },
          ],
        },
      ],
      verifiers: null,
      networkId: this.node.options.network,
      nonce: `braid-dev-fund-${this.node.clock.nowMicros()}-${this.nonces++}`,
    };
    const key = {
      publicKey: decodeHex(FAUCET.publicKey),
      secretKey: decodeHex(FAUCET.secretKey),
    };
    const parsed = parseCommand(signCommand(encodeCommandPayload(payload), [key], "blake2b"));
    if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join("; "));
    return parsed.command;
  }

  private checkChains(chains: readonly number[]): void {
    const count = this.node.chains.length;
    if (chains.length === 0) throw new DevControlRefusal("name at least one chain");
    for (const chainId of chains) {
      if (!Number.isSafeInteger(chainId) || chainId < 0 || chainId >= count) {
        throw new DevControlRefusal(`no such chain: ${chainId}; the chains are 0 to ${count - 1}`);
      }
    }
    if (new Set(chains).size !== chains.length) {
      throw new DevControlRefusal("a chain is named twice");
    }
  }

  /**
   * Runs `work` after every control started before it has finished; refused while writes fail
   * (a failure of the disk it meets is thrown as the refusal).
   */
  private serial<T>(work: () => T | Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.node.storage.write(work));
    this.queue = run.catch(() => {});
    return run;
  }
}

/**
 * Checks a `fund` request's form: account 3 to 256 characters, 1 to {@link MAX_FUND_KEYS}
 * ED25519 public keys (64 hex digits), a predicate of {@link FUND_PREDICATES}, an amount above 0
 * and at most {@link MAX_FUND_AMOUNT} with at most 12 decimals. Returns the amount with a
 * fraction (Pact's decimal form); throws {@link DevControlRefusal}.
 */
export function checkFundRequest(request: FundRequest): FundRequest {
  const { account, keys, pred, amount } = request;
  if (account.length < 3 || account.length > 256) {
    throw new DevControlRefusal(`account must be 3 to 256 characters, got ${account.length}`);
  }
  if (keys.length < 1 || keys.length > MAX_FUND_KEYS) {
    throw new DevControlRefusal(
      `keys must hold 1 to ${MAX_FUND_KEYS} public keys, got ${keys.length}`,
    );
  }
  for (const key of keys) {
    if (!/^[0-9a-f]{64}$/.test(key)) {
      throw new DevControlRefusal(
        `a key must be 64 lowercase hex digits (an ED25519 public key), got ${JSON.stringify(key.slice(0, 80))}`,
      );
    }
  }
  if (!(FUND_PREDICATES as readonly string[]).includes(pred)) {
    throw new DevControlRefusal(
      `pred must be one of ${FUND_PREDICATES.join(", ")}, got ${JSON.stringify(pred.slice(0, 40))}`,
    );
  }
  const match = /^([0-9]{1,16})(?:\.([0-9]{1,12}))?$/.exec(amount);
  const value = match === null ? null : Decimal.parseLiteral(`${match[1]}.${match[2] ?? "0"}`);
  if (value === null || value.sign() <= 0 || value.compare(MAX_AMOUNT) > 0) {
    throw new DevControlRefusal(
      `amount must be a number above 0 and at most ${MAX_FUND_AMOUNT} with at most 12 decimals, got ${JSON.stringify(amount.slice(0, 40))}`,
    );
  }
  return { ...request, amount: `${match![1]}.${match![2] ?? "0"}` };
}
