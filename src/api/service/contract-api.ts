/**
 * The contract command endpoints of one node, independent of HTTP routing: `send`, `poll`,
 * `listen`, `local` and `private` take the request body text (and query) and return the response
 * body text, or throw an `HttpError` before changing anything.
 */
import {
  type CommandParseResult,
  type ParsedCommand,
  parseCommandAhead,
} from "../../command/index.ts";
import { decodeBase64Url } from "../../crypto/index.ts";
import {
  CommandRefusal,
  LocalBusy,
  LocalRefusal,
  type NodePorts,
  type StoredBlock,
} from "../../node/ports.ts";
import { encodeLegacyObject, jsonString } from "../../pact/values/index.ts";
import { listenBody, pollBody, sendBody } from "../http/command-bodies.ts";
import { badRequest, HttpError } from "../http/errors.ts";
import { jsonObjectBody } from "../http/json-body.ts";
import { KeyWaiters } from "../http/key-waiters.ts";
import { quoteText } from "../http/quote.ts";

/** Query parameters of `local` and `poll`, as received. */
export interface ContractQuery {
  readonly preflight?: unknown;
  readonly signatureVerification?: unknown;
  readonly rewindDepth?: unknown;
  readonly confirmationDepth?: unknown;
}

/**
 * In on-demand mining, how long `send` (and `private`) waits for its commands' block before it
 * answers (as Hardhat's automine does), so the first `poll` after it finds the results. Past
 * it, `send` answers anyway; the commands stay in the mempool.
 */
export const SEND_MINING_WAIT_MS = 2_000;

export class ContractApi {
  private readonly waiters = new KeyWaiters<string>();
  /** `send` and `private` calls waiting for their commands' block (on-demand mining). */
  private readonly sendWaiters = new KeyWaiters<true>();
  private closed = false;
  private readonly onBlock = (chainId: number, block: StoredBlock) => {
    for (const key of block.requestKeys) {
      const waitKey = `${chainId}/${key}`;
      this.sendWaiters.publish(waitKey, true);
      if (!this.waiters.has(waitKey)) continue;
      const result = this.node.commands.result(chainId, decodeBase64Url(key));
      if (result !== null) this.waiters.publish(waitKey, result);
    }
    for (const { command } of block.rejected)
      this.sendWaiters.publish(`${chainId}/${command.hash}`, true);
  };

  constructor(
    private readonly node: Pick<NodePorts, "commands" | "events">,
    private readonly listenTimeoutMs: number,
  ) {
    node.events.on("block", this.onBlock);
  }

  async send(chainId: number, body: string): Promise<string> {
    const bodies = sendBody(body);
    const keys = await this.node.commands.admitting(chainId, async () => {
      const batch = parseBatchAhead(bodies, true);
      // The gas of the commands that parse is bought while their signatures are verified.
      const bought = this.node.commands.buyGasAhead(chainId, batch.parsed);
      const commands = await batch.verified;
      return this.refusing(() => this.node.commands.submit(chainId, commands, bought));
    });
    await this.mined(chainId, keys);
    return `{"requestKeys":[${keys.map(jsonString).join(",")}]}`;
  }

  /**
   * `private`: one command with private metadata `{"address": {"from", "to"}}`. This node plays
   * every entity, so it runs the command (in a block, like `send`, without buying gas).
   */
  async private(chainId: number, body: string): Promise<string> {
    const bodies = [jsonObjectBody(body, "(a command)")];
    const [command] = await this.node.commands.admitting(
      chainId,
      () => parseBatchAhead(bodies, true).verified,
    );
    const meta = command!.payload.meta;
    if (meta.kind !== "private" || meta.address === null) {
      throw badRequest(
        `the command needs private metadata {"address": {"from": entity, "to": [entity, …]}} in cmd.meta`,
      );
    }
    const keys = this.refusing(() => this.node.commands.submit(chainId, [command!]));
    await this.mined(chainId, keys);
    return `{"requestKeys":[${keys.map(jsonString).join(",")}]}`;
  }

  /**
   * Under on-demand mining, until the commands are in a block or left out of one, at most
   * {@link SEND_MINING_WAIT_MS}; at once otherwise.
   */
  private async mined(chainId: number, keys: readonly string[]): Promise<void> {
    if (!this.node.commands.minesOnRequest) return;
    await Promise.all(
      keys.map((key) => this.sendWaiters.wait(`${chainId}/${key}`, SEND_MINING_WAIT_MS)),
    );
  }

  poll(chainId: number, body: string, query: ContractQuery): string {
    const keys = pollBody(body);
    // Past 2^53 the number is rounded, but it stays deeper than any chain: no result yet.
    const depth = Number(depthParam(query.confirmationDepth, "confirmationDepth"));
    const found = new Map<string, string>();
    for (const key of keys) {
      if (found.has(key)) continue;
      const result = this.node.commands.result(chainId, keyBytes(key), depth);
      if (result !== null) found.set(key, result);
    }
    return encodeLegacyObject(found);
  }

  /** `listen`: the result as soon as it is in a block; a 504 after the time-out. */
  async listen(chainId: number, body: string, signal: AbortSignal): Promise<string> {
    const key = listenBody(body);
    const stored = this.node.commands.result(chainId, keyBytes(key));
    if (stored !== null) return stored;
    const result = await this.waiters.wait(`${chainId}/${key}`, this.listenTimeoutMs, signal);
    if (result === undefined && this.closed) {
      throw new HttpError(503, "the node is shutting down; listen again once it is back");
    }
    if (result === undefined) {
      throw new HttpError(
        504,
        `no result for request key ${key} on chain ${chainId} after ${this.listenTimeoutMs / 1000} s; poll or listen again`,
      );
    }
    return result;
  }

  async local(chainId: number, body: string, query: ContractQuery): Promise<string> {
    const preflight = booleanParam(query.preflight, "preflight", false);
    const verify = booleanParam(query.signatureVerification, "signatureVerification", true);
    const rewindDepth = depthParam(query.rewindDepth, "rewindDepth");
    try {
      // The body is parsed and verified where the command runs (an execution thread).
      return await this.node.commands.local(chainId, body, {
        preflight,
        rewindDepth,
        verifySignatures: verify,
      });
    } catch (e) {
      if (e instanceof LocalRefusal) throw badRequest(e.message);
      if (e instanceof LocalBusy) throw new HttpError(503, e.message);
      throw e;
    }
  }

  /** How many `listen` calls wait. */
  get listeners(): number {
    return this.waiters.count;
  }

  close(): void {
    this.closed = true;
    this.node.events.off("block", this.onBlock);
    this.waiters.close();
    this.sendWaiters.close();
  }

  private refusing<T>(run: () => T): T {
    try {
      return run();
    } catch (e) {
      if (e instanceof CommandRefusal) throw badRequest(e.message);
      throw e;
    }
  }
}

/**
 * Parses every command of a batch now and verifies their signatures on the thread pool:
 * `parsed`, the commands that parse (signatures not yet known good); `verified`, the batch once
 * every signature is good (the same command objects), or the refusal of the batch, one bad
 * command refusing it.
 */
function parseBatchAhead(
  bodies: readonly unknown[],
  verify: boolean,
): { readonly parsed: readonly ParsedCommand[]; readonly verified: Promise<ParsedCommand[]> } {
  const ahead = bodies.map((body) => parseCommandAhead(body, { verifySignatures: verify }));
  const verified = verifiedBatch(
    bodies,
    ahead.map((a) => a.result),
  );
  // A caller whose own check fails first gives it up: its refusal then goes unread, not unhandled.
  verified.catch(() => {});
  return { parsed: ahead.flatMap((a) => (a.parsed === null ? [] : [a.parsed])), verified };
}

/** The commands of a batch once every one is verified; one bad command refuses the batch. */
async function verifiedBatch(
  bodies: readonly unknown[],
  checks: readonly Promise<CommandParseResult>[],
): Promise<ParsedCommand[]> {
  const results = await Promise.all(checks);
  const failures: string[] = [];
  const commands: ParsedCommand[] = [];
  results.forEach((result, i) => {
    if (result.ok) commands.push(result.command);
    else {
      const hash = (bodies[i] as { hash?: unknown } | null)?.hash;
      const name = typeof hash === "string" ? jsonString(hash.slice(0, 64)) : "without a hash";
      failures.push(
        `Transaction ${name} at index ${i} failed with: ${result.problems.map((p) => p.message).join("; ")}`,
      );
    }
  });
  if (failures.length > 0) {
    throw badRequest(`One or more transactions were invalid: ${failures.join(", ")}`);
  }
  return commands;
}

/** The 32 bytes of a request key already checked to be canonical (command-bodies.ts). */
const keyBytes = decodeBase64Url;

function booleanParam(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === "true") return true;
  if (value === "false") return false;
  throw badRequest(`the query parameter ${name} must be true or false`);
}

/**
 * `rewindDepth` or `confirmationDepth`: any integer >= 0, read exactly however many digits it
 * has (the URL's length bounds them), so a depth past Number's safe range is still compared right.
 */
function depthParam(value: unknown, name: string): bigint {
  if (value === undefined) return 0n;
  if (typeof value !== "string") {
    throw badRequest(`the query parameter ${name} is given more than once`);
  }
  if (!/^[0-9]+$/.test(value)) {
    throw badRequest(
      `the query parameter ${name} must be an integer >= 0, got ${quoteText(value)}`,
    );
  }
  return BigInt(value);
}
