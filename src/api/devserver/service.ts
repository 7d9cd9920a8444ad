/**
 * What the development server does, independent of HTTP: each endpoint takes the request body
 * text and returns the response body text, or throws an `HttpError` (always before running any
 * command). Commands run one at a time against one contract state, each in its own transaction;
 * results are stored by request key and wake `listen` callers waiting for them.
 */
import { join } from "node:path";
import { type ParsedCommand, parseCommand } from "../../command/index.ts";
import {
  bounded,
  boundsWithTimeLimit,
  type CommandOutcome,
  DEFAULT_COMMAND_TIME_LIMIT_MS,
  encodeCommandResult,
  executeCommand,
  FREE_GAS_WITH_COMMAND_LIMIT,
  failureOutcome,
  type GasSettings,
  TOPLEVEL_ORIGIN,
} from "../../execution/index.ts";
import { openMemoryPactDb, openSqlitePactDb, type VersionedPactDb } from "../../pact/db/index.ts";
import { encodeLegacyObject, jsonString, PactTime } from "../../pact/values/index.ts";
import type { LogSink } from "../http/access-log.ts";
import { listenBody, pollBody, sendBody } from "../http/command-bodies.ts";
import { badRequest } from "../http/errors.ts";
import { jsonObjectBody } from "../http/json-body.ts";
import { KeyWaiters } from "../http/key-waiters.ts";
import type { DevServerConfig } from "./config.ts";
import { COMMAND_TURN_MS, RESULTS_FILE, STATE_FILE } from "./limits.ts";
import { MemoryResultStore, type ResultStore, SqliteResultStore } from "./results-store.ts";
import { verifyRequest } from "./verify.ts";

/**
 * Every command's bounds here: the work and value bounds of any command, and the node's default
 * time limit (a command past it fails with Chainweb's "Transaction timed out"), so that one
 * command cannot keep the server from answering others for long.
 */
const DEV_SERVER_BOUNDS = boundsWithTimeLimit(DEFAULT_COMMAND_TIME_LIMIT_MS);

/** Query parameters of `local`, as received. */
export interface LocalQuery {
  readonly preflight?: string;
  readonly signatureVerification?: string;
}

export class DevService {
  readonly db: VersionedPactDb;
  readonly results: ResultStore;
  private readonly waiters = new KeyWaiters<string>();
  /** Sent commands not run yet, in the order they came, and their request keys. */
  private readonly queue: ParsedCommand[] = [];
  private readonly queued = new Set<string>();
  private turnScheduled = false;
  private closed = false;
  private readonly gas: GasSettings;
  private readonly flags: ReadonlySet<string>;

  constructor(
    readonly config: DevServerConfig,
    /** Receives the verbose per-command lines. */
    private readonly log: LogSink,
  ) {
    const dir = config.persistDir;
    const pragmas = config.pragmas;
    this.db =
      dir === null ? openMemoryPactDb() : openSqlitePactDb(join(dir, STATE_FILE), { pragmas });
    try {
      this.results =
        dir === null
          ? new MemoryResultStore()
          : new SqliteResultStore(join(dir, RESULTS_FILE), pragmas);
    } catch (e) {
      this.db.close();
      throw e;
    }
    // A server gas limit of 0 leaves each command its own meta.gasLimit; every command is also
    // bounded by COMMAND_BOUNDS (src/execution), free gas or not.
    this.gas =
      config.gasLimit === 0 && config.gasRate === 0
        ? FREE_GAS_WITH_COMMAND_LIMIT
        : {
            kind: "metered",
            limit: config.gasLimit === 0 ? "command" : config.gasLimit,
            perAction: config.gasRate === 0 ? null : config.gasRate,
          };
    this.flags = new Set(config.flags);
  }

  /**
   * `send`: `{"cmds":[…]}` → `{"requestKeys":[…]}`. The commands run in the order they came,
   * before the answer as far as {@link COMMAND_TURN_MS} allows, the rest in later turns (their
   * results then come to `poll` and `listen` when they have run).
   */
  send(bodyText: string): string {
    const cmds = sendBody(bodyText);
    const commands = cmds.map((c, i) => this.publicCommand(c, `command ${i}`, true));
    this.checkNew(commands);
    this.enqueue(commands);
    return `{"requestKeys":[${commands.map((c) => jsonString(c.hash)).join(",")}]}`;
  }

  /** Queues commands to run after those already queued, and runs what a turn allows. */
  private enqueue(commands: readonly ParsedCommand[]): void {
    for (const command of commands) {
      this.queue.push(command);
      this.queued.add(command.hash);
    }
    this.runQueued();
  }

  /** Runs queued commands for up to {@link COMMAND_TURN_MS}; schedules a turn for the rest. */
  private runQueued(): void {
    const started = performance.now();
    while (this.queue.length > 0 && !this.closed) {
      if (performance.now() - started >= COMMAND_TURN_MS) {
        if (!this.turnScheduled) {
          this.turnScheduled = true;
          // Through a timer then an immediate, so that the event loop polls in between: requests
          // that arrived during this turn are read and answered before the next.
          setTimeout(() =>
            setImmediate(() => {
              this.turnScheduled = false;
              this.runQueued();
            }),
          );
        }
        return;
      }
      const command = this.queue.shift()!;
      this.record(command.hash, this.run(command));
      this.queued.delete(command.hash);
    }
  }

  /** `poll`: `{"requestKeys":[…]}` → an object of the stored results (unknown keys left out). */
  poll(bodyText: string): string {
    const found = new Map<string, string>();
    for (const key of pollBody(bodyText)) {
      const result = this.results.get(key);
      if (result !== undefined) found.set(key, result);
    }
    return encodeLegacyObject(found);
  }

  /**
   * `listen`: `{"listen": key}` → the result, as soon as it exists; after the configured time-out,
   * `{"status":"timeout","timeout-micros":n}`. Resolves early (with the time-out answer) when
   * `signal` aborts.
   */
  async listen(bodyText: string, signal?: AbortSignal): Promise<string> {
    const key = listenBody(bodyText);
    const stored = this.results.get(key);
    if (stored !== undefined) return stored;
    const timeoutMs = this.config.listenTimeoutSeconds * 1000;
    const result = await this.waiters.wait(key, timeoutMs, signal);
    return result ?? `{"status":"timeout","timeout-micros":${Math.round(timeoutMs * 1000)}}`;
  }

  /**
   * `local`: a command → its result, every write rolled back, nothing stored. With
   * `preflight=true` the result is wrapped as `{"preflightResult":…,"preflightWarnings":[]}`;
   * `signatureVerification=false` skips the signature checks.
   */
  local(bodyText: string, query: LocalQuery = {}): string {
    const verify = query.signatureVerification !== "false";
    const command = this.publicCommand(
      jsonObjectBody(bodyText, "(a command)"),
      "the command",
      verify,
    );
    const outcome = this.run(command, "local");
    const result = encodeCommandResult(outcome);
    return query.preflight === "true"
      ? `{"preflightResult":${result},"preflightWarnings":[]}`
      : result;
  }

  /**
   * `private`: a command with private metadata `{"address":{"from","to"}}`. It runs when this
   * server's entity is the sender or a recipient; otherwise a failure result records that it was
   * not addressed here. Either way the result is stored for `poll` and `listen`.
   */
  private(bodyText: string): string {
    const parsed = this.verified(jsonObjectBody(bodyText, "(a command)"), "the command", true);
    const meta = parsed.payload.meta;
    if (meta.kind !== "private" || meta.address === null) {
      throw badRequest(
        `the command needs private metadata {"address": {"from": entity, "to": [entity, …]}} in cmd.meta`,
      );
    }
    this.checkNew([parsed]);
    const { from, to } = meta.address;
    const entity = this.config.entity;
    if (from === entity || to.includes(entity)) {
      this.enqueue([parsed]);
    } else {
      const message = `Private command not addressed to this entity "${entity}": sent from "${from}" to ${JSON.stringify(to)}`;
      this.record(
        parsed.hash,
        failureOutcome(parsed.hash, {
          type: "EvalError",
          message: bounded(message),
          info: `${TOPLEVEL_ORIGIN}:0`,
        }),
      );
    }
    return `{"requestKeys":[${jsonString(parsed.hash)}]}`;
  }

  /** `verify`: the report of {@link verifyRequest}, as JSON. */
  verify(bodyText: string): string {
    return JSON.stringify(verifyRequest(bodyText, this.db, this.config.commandHash));
  }

  /** How many `listen` calls are waiting for a result. */
  get listeners(): number {
    return this.waiters.count;
  }

  /** Answers every waiting `listen` caller with the time-out answer. */
  endListens(): void {
    this.waiters.close();
  }

  /** Ends the waiting `listen` calls and closes the databases (queued commands are not run). */
  close(): void {
    this.closed = true;
    this.waiters.close();
    this.results.close();
    this.db.close();
  }

  // -------------------------------------------------------------------------------------------

  private verified(body: unknown, what: string, verifySignatures: boolean): ParsedCommand {
    const parsed = parseCommand(body, { verifySignatures });
    if (!parsed.ok) {
      throw badRequest(`${what} is invalid: ${parsed.problems.map((p) => p.message).join("; ")}`);
    }
    return parsed.command;
  }

  private publicCommand(body: unknown, what: string, verifySignatures: boolean): ParsedCommand {
    const command = this.verified(body, what, verifySignatures);
    if (command.payload.meta.kind !== "public") {
      throw badRequest(`${what} has private metadata: submit it to /api/v1/private`);
    }
    return command;
  }

  /** Refuses a batch holding a request key already stored, or the same key twice. */
  private checkNew(commands: readonly ParsedCommand[]): void {
    const seen = new Set<string>();
    for (const { hash } of commands) {
      if (seen.has(hash) || this.results.has(hash) || this.queued.has(hash)) {
        throw badRequest(
          `Request key: ${hash} has already been submitted. If you are resubmitting a valid transaction, try changing the nonce in the payload`,
        );
      }
      seen.add(hash);
    }
  }

  private run(
    command: ParsedCommand,
    mode: "transactional" | "local" = "transactional",
  ): CommandOutcome {
    const outcome = executeCommand(command, {
      db: this.db,
      mode,
      block: { height: 0n, time: new PactTime(BigInt(Date.now()) * 1000n), prevBlockHash: "" },
      gas: this.gas,
      bounds: DEV_SERVER_BOUNDS,
      flags: this.flags,
    });
    if (this.config.verbose) this.log.line(verboseLine(mode, outcome));
    return outcome;
  }

  private record(key: string, outcome: CommandOutcome): void {
    const text = encodeCommandResult(outcome);
    this.results.put(key, text);
    this.waiters.publish(key, text);
  }
}

/** `send <key> success gas 0`, or `… failure gas 0: TxFailure: <message>`. */
function verboseLine(mode: "transactional" | "local", outcome: CommandOutcome): string {
  const head = `${mode === "local" ? "local" : "command"} ${outcome.reqKey} ${outcome.result.status} gas ${outcome.gas}`;
  const r = outcome.result;
  return r.status === "success" ? head : `${head}: ${r.error.type}: ${r.error.message}`;
}
