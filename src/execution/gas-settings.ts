/**
 * Gas for one command, and the bounds every command runs under.
 *
 * Free gas prices nothing and reports 0 (the development server's default, as in Pact's server).
 * Metered gas counts the evaluator's charges — the natives' table costs, or a constant amount per
 * charged action (Pact 4's `constGasModel`, the server's `gasRate`) — up to a limit, and reports
 * the total rounded up to whole gas. A limit of `"command"` is the command's own `meta.gasLimit`
 * (none when it is 0 or the command has no public metadata).
 *
 * Whatever the settings, the work of a command is counted with Pact 5's table costs and stops at
 * {@link CommandBounds.workMilligas}, and the lists and strings it builds stop at
 * {@link CommandBounds.valueBytes}: free gas does not mean unbounded work or memory. Where the
 * caller answers for the time a command takes (a `local` call, a block being made, the
 * development server), {@link CommandBounds.timeLimitMs} also stops it after that long.
 */

import type { ParsedCommand } from "../command/index.ts";
import {
  type GasMeter,
  LimitedGasMeter,
  MILLIGAS_PER_GAS,
  PactError,
  PactGasMeter,
  TABLE_GAS_CONFIG,
  TABLE_GAS_MODEL,
} from "../pact/index.ts";
import { threadCpuAtStartMs, threadCpuMs } from "./thread-cpu.ts";

export type GasLimitSetting = number | "command" | null;

export type GasSettings =
  | {
      readonly kind: "free";
      /** Also stop at the command's own `meta.gasLimit` (counted with the table costs). */
      readonly commandLimit?: boolean;
    }
  | {
      readonly kind: "metered";
      /** Gas limit: a number, the command's own (`"command"`), or null for none. */
      readonly limit: GasLimitSetting;
      /** Gas per charged action instead of the table costs; null for the table costs. */
      readonly perAction: number | null;
    };

export const FREE_GAS: GasSettings = { kind: "free" };

/** Free gas that still stops at each command's own `meta.gasLimit` (the development server's). */
export const FREE_GAS_WITH_COMMAND_LIMIT: GasSettings = { kind: "free", commandLimit: true };

/**
 * The most work one command may do, in milligas of Pact 5's table costs, under any gas settings:
 * 1,000,000 gas (Chainweb's block gas limit is 150,000). About a second of evaluation at most.
 */
export const MAX_COMMAND_WORK_MILLIGAS = 1_000_000_000;

/**
 * The most one command may build of lists and strings, in bytes as the gas model sizes them:
 * `make-list` and `enumerate` count elements × element size, and every concatenation (`+` on
 * strings, lists and objects, `concat`, `reverse`, `take`, `format`, `show`, …) one byte per
 * character or element built. 32 MiB, about 150 MB of the interpreter's memory at most.
 */
export const MAX_COMMAND_VALUE_BYTES = 33_554_432;

export interface CommandBounds {
  /** Milligas of table-model work; see {@link MAX_COMMAND_WORK_MILLIGAS}. */
  readonly workMilligas: number;
  /** Bytes of lists and strings built; see {@link MAX_COMMAND_VALUE_BYTES}. */
  readonly valueBytes: number;
  /**
   * Milliseconds the command may run, or null for no limit. A block replayed or imported must
   * give the same outputs on any machine, so it never has one; `local`, a block this node makes
   * and the development server do (Chainweb's `local` timeout and new-block transaction time
   * limit), so that one command cannot hold the node's one thread for long.
   */
  readonly timeLimitMs: number | null;
}

/** The bounds of every command: work and built values, no time limit. */
export const COMMAND_BOUNDS: CommandBounds = Object.freeze({
  workMilligas: MAX_COMMAND_WORK_MILLIGAS,
  valueBytes: MAX_COMMAND_VALUE_BYTES,
  timeLimitMs: null,
});

/**
 * How long one command may run on the node's own thread — in `local` and in a block the node
 * makes there — unless configured otherwise: this is how long one command can keep that thread
 * from answering anyone else. Far above what ordinary commands take (a transfer:
 * under a millisecond), and with what a command may overrun it by (a collection of garbage, the
 * step under way) below the 200 ms a client should ever be kept waiting. Chainweb's are
 * 2 s for `local` (when enabled) and 12.5 µs per unit of the block gas limit (1.9 s) for a new
 * block's command, on a node whose API has threads of its own.
 */
export const DEFAULT_COMMAND_TIME_LIMIT_MS = 100;

/**
 * chainweb-node's limit on one `local` call (`localTimeout`, 2 s): a node's `local` on an
 * execution thread and every command of the development server, each run beside the thread that
 * answers HTTP.
 */
export const DEFAULT_LOCAL_TIME_LIMIT_MS = 2_000;

/** The longest time limit for one command a node or a development server accepts. */
export const MAX_COMMAND_TIME_LIMIT_MS = 60_000;

/** {@link COMMAND_BOUNDS} with a time limit of `timeLimitMs`. */
export function boundsWithTimeLimit(timeLimitMs: number): CommandBounds {
  return { ...COMMAND_BOUNDS, timeLimitMs };
}

/**
 * How many charges a meter with a time limit lets pass between two readings of the clock: a
 * reading costs about as much as a charge, and a charge pays in advance for a bounded amount of
 * work, so the limit is overrun by at most this many charges' work.
 */
const CHARGES_PER_CLOCK_READ = 16;

/** Why a command was stopped by its time limit: Chainweb's words, then the limit. */
export function commandTimeoutMessage(limitMs: number): string {
  return `Transaction timed out: it ran longer than this node's limit of ${limitMs} ms for one command`;
}

/**
 * The time limit of one command's meter, in time its thread ran: the wall clock is read (cheap)
 * until the limit has passed on it, then the thread's CPU time (thread-cpu.ts), so that a machine
 * busy with other work — when the command is not even running — does not time out a command that
 * would fit.
 */
class Deadline {
  private charges = 0;
  private wallDeadline: number;
  private readonly cpuAtStart: number;
  timedOut = false;

  constructor(private readonly limitMs: number) {
    this.wallDeadline = performance.now() + limitMs;
    this.cpuAtStart = threadCpuAtStartMs();
  }

  check(): void {
    if (++this.charges % CHARGES_PER_CLOCK_READ === 0) this.checkNow();
  }

  /** Reads the clock now (between the steps of a native's long loop). */
  checkNow(): void {
    const now = performance.now();
    if (now <= this.wallDeadline) return;
    const ranMs = threadCpuMs() - this.cpuAtStart;
    if (ranMs < this.limitMs) {
      // Waited for the machine meanwhile: what is left of the limit, in wall time again.
      this.wallDeadline = now + (this.limitMs - ranMs);
      return;
    }
    this.timedOut = true;
    throw new PactError("gas", commandTimeoutMessage(this.limitMs));
  }
}

/** Whether the command charged to `meter` was stopped by its time limit. */
export function timedOut(meter: GasMeter): boolean {
  return (
    (meter instanceof BoundedGasMeter || meter instanceof ConstantRateGasMeter) &&
    meter.deadline?.timedOut === true
  );
}

/** The meter of one command. `command` supplies its own gas limit when the settings ask for it. */
export function gasMeterFor(
  settings: GasSettings,
  command?: ParsedCommand,
  bounds: CommandBounds = COMMAND_BOUNDS,
): GasMeter {
  if (settings.kind === "free") {
    const limit = settings.commandLimit === true ? commandGasLimit(command) : null;
    return new BoundedGasMeter(limit, bounds, false);
  }
  const limit = settings.limit === "command" ? commandGasLimit(command) : settings.limit;
  if (settings.perAction === null) return new BoundedGasMeter(limit, bounds, true);
  const work = Math.floor(bounds.workMilligas / MILLIGAS_PER_GAS);
  const capped = limit === null || limit > work ? work : limit;
  return new ConstantRateGasMeter(
    new LimitedGasMeter(capped),
    settings.perAction,
    deadlineOf(bounds),
  );
}

/** The command's `meta.gasLimit`; null when it has none (0, or private metadata). */
function commandGasLimit(command: ParsedCommand | undefined): number | null {
  const meta = command?.payload.meta;
  return meta?.kind === "public" && meta.gasLimit > 0 ? meta.gasLimit : null;
}

/** Whole gas used so far: milligas rounded up (Pact's `milliGasToGas`); 0 under free gas. */
export function gasUsed(meter: GasMeter): number {
  if (meter instanceof BoundedGasMeter && !meter.reported) return 0;
  return Math.ceil(meter.used() / MILLIGAS_PER_GAS);
}

/**
 * The table model counting toward a gas limit (Pact's message when passed) and the command
 * bounds (their own messages). `reported` says whether the gas used is the command's gas, or
 * only counted for the bounds (free gas).
 */
export class BoundedGasMeter extends PactGasMeter {
  private valueBytes = 0;
  private readonly gasLimitMilligas: number;
  readonly deadline: Deadline | null;

  constructor(
    gasLimit: number | null,
    private readonly bounds: CommandBounds,
    readonly reported: boolean,
  ) {
    const gasMilligas = gasLimit === null ? Number.POSITIVE_INFINITY : gasLimit * MILLIGAS_PER_GAS;
    super(TABLE_GAS_MODEL, Math.min(gasMilligas, bounds.workMilligas));
    this.gasLimitMilligas = gasMilligas;
    this.deadline = deadlineOf(bounds);
  }

  checkTime(): void {
    this.deadline?.checkNow();
  }

  override charge(milligas: number, what = ""): void {
    this.deadline?.check();
    if (what.startsWith("GMakeList")) this.built(milligas);
    else if (what.startsWith("GConcat")) {
      this.built(Math.ceil(milligas / TABLE_GAS_CONFIG.concatFactor));
    }
    const total = Math.min(this.used() + milligas, Number.MAX_SAFE_INTEGER);
    if (total <= this.bounds.workMilligas || this.gasLimitMilligas <= this.bounds.workMilligas) {
      super.charge(milligas, what);
      return;
    }
    this.setUsed(total);
    throw new PactError(
      "gas",
      `Command exceeded the work limit of ${this.bounds.workMilligas / MILLIGAS_PER_GAS} gas${this.reported ? "" : " (gas is free here, but work is bounded)"}: used ${Math.ceil(total / MILLIGAS_PER_GAS)}`,
    );
  }

  private built(bytes: number): void {
    this.valueBytes += bytes;
    if (this.valueBytes > this.bounds.valueBytes) {
      throw new PactError(
        "gas",
        `Command exceeded the limit of ${this.bounds.valueBytes} bytes on the lists and strings it builds: ${this.valueBytes} bytes`,
      );
    }
  }
}

function deadlineOf(bounds: CommandBounds): Deadline | null {
  return bounds.timeLimitMs === null ? null : new Deadline(bounds.timeLimitMs);
}

/** Charges `gasPerAction` for every charge, whatever its table cost. */
class ConstantRateGasMeter implements GasMeter {
  private readonly milligasPerAction: number;
  constructor(
    private readonly inner: LimitedGasMeter,
    gasPerAction: number,
    readonly deadline: Deadline | null,
  ) {
    this.milligasPerAction = gasPerAction * MILLIGAS_PER_GAS;
  }
  checkTime(): void {
    this.deadline?.checkNow();
  }
  charge(_milligas: number): void {
    this.deadline?.check();
    this.inner.charge(this.milligasPerAction);
  }
  used(): number {
    return this.inner.used();
  }
  setUsed(milligas: number): void {
    this.inner.setUsed(milligas);
  }
}
