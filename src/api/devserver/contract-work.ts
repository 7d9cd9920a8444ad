/**
 * The development server's contract work, as it crosses to the thread that owns the contract
 * state (contract-thread.ts) and back: requests and answers are plain data. `ContractState` does
 * the work on the state, one piece at a time, wherever it is given it; the HTTP thread has
 * already checked each command (envelope, hash, signatures, duplicates) before it sends it over.
 */
import { parseCommand } from "../../command/index.ts";
import {
  boundsWithTimeLimit,
  type CommandBounds,
  type CommandOutcome,
  encodeCommandResult,
  executeCommand,
  FREE_GAS_WITH_COMMAND_LIMIT,
  type GasSettings,
} from "../../execution/index.ts";
import { openSqlitePactDb, type VersionedPactDb } from "../../pact/db/index.ts";
import { PactTime } from "../../pact/values/index.ts";
import type { DevServerConfig } from "./config.ts";
import { verifyRequest } from "./verify.ts";

/** What the thread is started with. */
export interface ContractThreadData {
  readonly config: DevServerConfig;
  /** The contract state's SQLite file: in `persistDir`, or a temporary one. */
  readonly statePath: string;
  /** Its SQLite pragmas: the configured ones in `persistDir`, none for a temporary file. */
  readonly pragmas: readonly string[];
}

/** One piece of contract work. `command` is a command object as the client sent it, checked. */
export type ContractWork =
  /** A command of `send` or `private`, run in a transaction of its own and committed. */
  | { readonly kind: "command"; readonly command: unknown }
  /** `local`: run, every write rolled back. */
  | { readonly kind: "local"; readonly command: unknown }
  /** `verify`'s report on a request body, compiled against the state and rolled back. */
  | { readonly kind: "verify"; readonly body: string };

export type ContractAnswer =
  /** A command's result as JSON text, and its verbose log line (when `verbose`). */
  | { readonly kind: "result"; readonly text: string; readonly line: string | null }
  /** `verify`'s report as JSON text. */
  | { readonly kind: "report"; readonly text: string }
  /** The work stopped its thread (held it past its limit, or exhausted its memory): why. */
  | { readonly kind: "stopped"; readonly message: string }
  /** The thread cannot take work (closing, or it could not start): why. */
  | { readonly kind: "failed"; readonly message: string };

/** The gas settings of the configuration (see docs/devserver.md, "Gas"). */
function gasSettings(config: DevServerConfig): GasSettings {
  // A server gas limit of 0 leaves each command its own meta.gasLimit; every command is also
  // bounded by COMMAND_BOUNDS (src/execution), free gas or not.
  if (config.gasLimit === 0 && config.gasRate === 0) return FREE_GAS_WITH_COMMAND_LIMIT;
  return {
    kind: "metered",
    limit: config.gasLimit === 0 ? "command" : config.gasLimit,
    perAction: config.gasRate === 0 ? null : config.gasRate,
  };
}

/** The one contract state of a development server, and the work done on it. */
export class ContractState {
  private readonly db: VersionedPactDb;
  private readonly gas: GasSettings;
  private readonly bounds: CommandBounds;
  private readonly flags: ReadonlySet<string>;

  constructor(private readonly data: ContractThreadData) {
    this.db = openSqlitePactDb(data.statePath, { pragmas: data.pragmas });
    this.gas = gasSettings(data.config);
    this.bounds = boundsWithTimeLimit(data.config.commandTimeLimitMs);
    this.flags = new Set(data.config.flags);
  }

  answer(work: ContractWork): ContractAnswer {
    if (work.kind === "verify") {
      const report = verifyRequest(work.body, this.db, this.data.config.commandHash);
      return { kind: "report", text: JSON.stringify(report) };
    }
    const parsed = parseCommand(work.command, { verifySignatures: false });
    // Checked on the HTTP thread already: a command that fails here is a fault of the server.
    if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join("; "));
    const mode = work.kind === "local" ? "local" : "transactional";
    const outcome = executeCommand(parsed.command, {
      db: this.db,
      mode,
      block: { height: 0n, time: new PactTime(BigInt(Date.now()) * 1000n), prevBlockHash: "" },
      gas: this.gas,
      bounds: this.bounds,
      flags: this.flags,
    });
    const line = this.data.config.verbose ? verboseLine(mode, outcome) : null;
    return { kind: "result", text: encodeCommandResult(outcome), line };
  }

  close(): void {
    this.db.close();
  }
}

/** `command <key> success gas 0`, or `… failure gas 0: TxFailure: <message>`. */
export function verboseLine(mode: "transactional" | "local", outcome: CommandOutcome): string {
  const head = `${mode === "local" ? "local" : "command"} ${outcome.reqKey} ${outcome.result.status} gas ${outcome.gas}`;
  const r = outcome.result;
  return r.status === "success" ? head : `${head}: ${r.error.type}: ${r.error.message}`;
}
