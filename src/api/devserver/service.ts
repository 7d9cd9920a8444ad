/**
 * What the development server does, independent of HTTP: each endpoint takes the request body
 * text and returns the response body text, or throws an `HttpError` (always before running any
 * command). The requests are read and checked here, on the thread that answers HTTP; the
 * commands run on the contract thread (contract-runner.ts), one at a time in the order they
 * came, each in its own transaction against the one contract state. Results are stored here by
 * request key and wake `listen` callers waiting for them.
 */
import { join } from "node:path";
import { type ParsedCommand, parseCommandAsync } from "../../command/index.ts";
import {
  bounded,
  type CommandOutcome,
  encodeCommandResult,
  failureOutcome,
  TOPLEVEL_ORIGIN,
} from "../../execution/index.ts";
import { encodeLegacyObject, jsonString } from "../../pact/values/index.ts";
import type { LogSink } from "../http/access-log.ts";
import { listenBody, pollBody, sendBody } from "../http/command-bodies.ts";
import { badRequest, HttpError } from "../http/errors.ts";
import { jsonObjectBody } from "../http/json-body.ts";
import { KeyWaiters } from "../http/key-waiters.ts";
import type { DevServerConfig } from "./config.ts";
import { ContractRunner } from "./contract-runner.ts";
import { type ContractAnswer, type ContractWork, verboseLine } from "./contract-work.ts";
import { MAX_WAITING_WORK, RESULTS_FILE, SEND_WAIT_MS } from "./limits.ts";
import { MemoryResultStore, type ResultStore, SqliteResultStore } from "./results-store.ts";

/** Query parameters of `local`, as received. */
export interface LocalQuery {
  readonly preflight?: string;
  readonly signatureVerification?: string;
}

/** A command checked here, and the object the client sent for it (what crosses to the thread). */
interface CheckedCommand {
  readonly parsed: ParsedCommand;
  readonly body: unknown;
}

export class DevService {
  readonly results: ResultStore;
  private readonly contracts: ContractRunner;
  private readonly waiters = new KeyWaiters<string>();
  /** Request keys of the commands handed to the contract thread that have no result yet. */
  private readonly queued = new Set<string>();

  constructor(
    readonly config: DevServerConfig,
    /** Receives the verbose per-command lines. */
    private readonly log: LogSink,
  ) {
    const dir = config.persistDir;
    this.results =
      dir === null
        ? new MemoryResultStore()
        : new SqliteResultStore(join(dir, RESULTS_FILE), config.pragmas);
    try {
      this.contracts = new ContractRunner(config, log);
    } catch (e) {
      this.results.close();
      throw e;
    }
  }

  /** Resolves once the contract thread has opened the state; throws why it could not. */
  started(): Promise<void> {
    return this.contracts.started();
  }

  /**
   * `send`: `{"cmds":[…]}` → `{"requestKeys":[…]}`. The commands run in the order they came,
   * after those sent before; the answer waits for their results at most {@link SEND_WAIT_MS}
   * (the rest come to `poll` and `listen` when they have run).
   */
  async send(bodyText: string): Promise<string> {
    const cmds = sendBody(bodyText);
    // Verified together on the thread pool; the first command found wrong is the one refused.
    const checked = await Promise.allSettled(
      cmds.map((c, i) => this.publicCommand(c, `command ${i}`, true)),
    );
    const commands = checked.map((outcome, i) => {
      if (outcome.status === "rejected") throw outcome.reason;
      return { parsed: outcome.value, body: cmds[i] };
    });
    this.checkNew(commands.map((c) => c.parsed));
    await this.runCommands(commands);
    return `{"requestKeys":[${commands.map((c) => jsonString(c.parsed.hash)).join(",")}]}`;
  }

  /**
   * Hands commands to the contract thread, each result stored when it comes; resolves when they
   * all have, or after {@link SEND_WAIT_MS}.
   */
  private async runCommands(commands: readonly CheckedCommand[]): Promise<void> {
    this.checkRoom(commands.length);
    const ran = commands.map(({ parsed, body }) => {
      this.queued.add(parsed.hash);
      return this.contracts
        .run({ kind: "command", command: body })
        .then((answer) => this.commandRan(parsed.hash, answer))
        .catch((e) =>
          this.log.line(`internal error storing ${parsed.hash}'s result: ${String(e)}`),
        );
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SEND_WAIT_MS);
    });
    await Promise.race([Promise.all(ran), waited]);
    clearTimeout(timer);
  }

  /** Stores a command's result (a stopped command's is a failure saying why). */
  private commandRan(key: string, answer: ContractAnswer): void {
    this.queued.delete(key);
    if (answer.kind === "result") {
      if (answer.line !== null) this.log.line(answer.line);
      this.store(key, answer.text);
    } else if (answer.kind === "stopped") {
      const outcome = failureAtTop(key, answer.message);
      if (this.config.verbose) this.log.line(verboseLine("transactional", outcome));
      this.record(key, outcome);
    } else if (answer.kind === "failed") {
      this.log.line(`command ${key} not run: ${answer.message}`);
    }
  }

  /** Refuses work beyond {@link MAX_WAITING_WORK} with a 503, before any of it is queued. */
  private checkRoom(pieces: number): void {
    const waiting = this.contracts.waiting;
    if (waiting + pieces > MAX_WAITING_WORK) {
      throw new HttpError(
        503,
        `${waiting} commands wait for the server's contract thread already (at most ${MAX_WAITING_WORK}); try again shortly`,
      );
    }
  }

  /** Runs one `local` or `verify` on the contract thread; its text, or a refusal. */
  private async ask(work: ContractWork): Promise<string> {
    this.checkRoom(1);
    const answer = await this.contracts.run(work);
    switch (answer.kind) {
      case "result":
        if (answer.line !== null) this.log.line(answer.line);
        return answer.text;
      case "report":
        return answer.text;
      case "stopped":
        throw badRequest(answer.message);
      case "failed":
        throw new HttpError(503, answer.message);
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
  async local(bodyText: string, query: LocalQuery = {}): Promise<string> {
    const verify = query.signatureVerification !== "false";
    const body = jsonObjectBody(bodyText, "(a command)");
    await this.publicCommand(body, "the command", verify);
    const result = await this.ask({ kind: "local", command: body });
    return query.preflight === "true"
      ? `{"preflightResult":${result},"preflightWarnings":[]}`
      : result;
  }

  /**
   * `private`: a command with private metadata `{"address":{"from","to"}}`. It runs when this
   * server's entity is the sender or a recipient; otherwise a failure result records that it was
   * not addressed here. Either way the result is stored for `poll` and `listen`.
   */
  async private(bodyText: string): Promise<string> {
    const body = jsonObjectBody(bodyText, "(a command)");
    const parsed = await this.verified(body, "the command", true);
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
      await this.runCommands([{ parsed, body }]);
    } else {
      const message = `Private command not addressed to this entity "${entity}": sent from "${from}" to ${JSON.stringify(to)}`;
      this.record(parsed.hash, failureAtTop(parsed.hash, message));
    }
    return `{"requestKeys":[${jsonString(parsed.hash)}]}`;
  }

  /** `verify`: the report of {@link verifyRequest}, as JSON. */
  verify(bodyText: string): Promise<string> {
    return this.ask({ kind: "verify", body: bodyText });
  }

  /** How many `listen` calls are waiting for a result. */
  get listeners(): number {
    return this.waiters.count;
  }

  /** Answers every waiting `listen` caller with the time-out answer. */
  endListens(): void {
    this.waiters.close();
  }

  /**
   * Ends the waiting `listen` calls, stops the contract thread (queued commands are not run) and
   * closes the result store.
   */
  async close(): Promise<void> {
    this.waiters.close();
    await this.contracts.close();
    this.results.close();
  }

  // -------------------------------------------------------------------------------------------

  /** The command of `body`, its signatures verified on the thread pool (not this thread). */
  private async verified(
    body: unknown,
    what: string,
    verifySignatures: boolean,
  ): Promise<ParsedCommand> {
    const parsed = await parseCommandAsync(body, { verifySignatures });
    if (!parsed.ok) {
      throw badRequest(`${what} is invalid: ${parsed.problems.map((p) => p.message).join("; ")}`);
    }
    return parsed.command;
  }

  private async publicCommand(
    body: unknown,
    what: string,
    verifySignatures: boolean,
  ): Promise<ParsedCommand> {
    const command = await this.verified(body, what, verifySignatures);
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

  private record(key: string, outcome: CommandOutcome): void {
    this.store(key, encodeCommandResult(outcome));
  }

  private store(key: string, text: string): void {
    this.results.put(key, text);
    this.waiters.publish(key, text);
  }
}

/**
 * A failure result for a command that did not run to its end here (not addressed to this entity,
 * or it stopped the contract thread): `message`, raised outside any function.
 */
function failureAtTop(key: string, message: string): CommandOutcome {
  return failureOutcome(key, {
    type: "EvalError",
    message: bounded(message),
    info: `${TOPLEVEL_ORIGIN}:0`,
  });
}
