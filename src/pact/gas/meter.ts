/**
 * The gas meter of one execution (Pact's `GasEnv`): the model that prices work, the limit, the
 * milligas used so far and, optionally, a log of every charge.
 *
 * As in Pact, nothing is counted while there is no limit: the REPL starts that way (free gas),
 * and `env-gaslimit` (or a transaction's gas limit) turns counting on. Every charge adds its cost
 * and then checks the total against the limit, failing with Pact's message. `charging` is a
 * plain field so the evaluator's hot paths can skip pricing work when nothing is counted.
 */
import { PactError } from "../runtime/errors.ts";
import {
  FREE_GAS_CONFIG,
  type GasCostConfig,
  MILLIGAS_PER_GAS,
  TABLE_GAS_CONFIG,
} from "./config.ts";
import { saturate } from "./costs.ts";
import type { ChargeRecorder } from "./profile.ts";

export interface GasModel {
  /** `table`, or `freeGasModel`. */
  readonly name: string;
  /** Shown by `env-gasmodel`. */
  readonly description: string;
  readonly config: GasCostConfig;
  /** Whether natives cost their flat table price (the free model's native table is empty). */
  readonly nativeCosts: boolean;
}

/** Pact 5's table-based cost model. */
export const TABLE_GAS_MODEL: GasModel = Object.freeze({
  name: "table",
  description: "table-based cost model",
  config: TABLE_GAS_CONFIG,
  nativeCosts: true,
});

/** Pact's free gas model. */
export const FREE_GAS_MODEL: GasModel = Object.freeze({
  name: "freeGasModel",
  description: "free gas model",
  config: FREE_GAS_CONFIG,
  nativeCosts: false,
});

/**
 * Work Pact 5's table prices below what it costs here (copying the list `drop` returns, which
 * Pact's vectors share; scanning a long string for its code points; sorting objects by fields,
 * which Pact does not price; …) is counted in steps of about a nanosecond of one core. A command
 * may do this many such steps whatever its gas …
 */
export const UNPRICED_STEPS_ALLOWANCE = 5_000_000;

/** … plus this many per milligas it has been charged (10 µs per gas). */
export const UNPRICED_STEPS_PER_MILLIGAS = 10;

/** Gas (rounded up) for a number of milligas. */
export function milligasToGas(milligas: number): number {
  return Math.ceil(milligas / MILLIGAS_PER_GAS);
}

/** One `env-gaslog` line: what was charged, where, and how much. */
export interface GasLogEntry {
  readonly what: string;
  readonly milligas: number;
}

/**
 * What the evaluator needs of a meter. A meter with `charging` set prices work itself (it is a
 * {@link PactGasMeter}): the evaluator hands it every native call and function application. Other
 * meters (free gas, or a constant rate per action) receive only each native's flat cost.
 */
export interface GasMeter {
  readonly charging?: boolean;
  /** Adds `milligas`; throws a `gas` PactError when the total passes the limit. */
  charge(milligas: number, what?: string): void;
  /**
   * Charges nothing, but throws a `gas` PactError when the command has run past its time limit
   * (meters that have one: src/execution). Called between the steps of a native's long loop.
   */
  checkTime?(): void;
  /** Milligas used so far. */
  used(): number;
  /** Sets the milligas used (the REPL's `env-gas`, `env-milligas`). */
  setUsed(milligas: number): void;
}

export class PactGasMeter implements GasMeter {
  /** Whether charges are counted (a limit is set). */
  charging: boolean;
  /** The cost constants of the model (read by the pricing code on every charge). */
  config: GasCostConfig;
  private total = 0;
  private unpricedSteps = 0;
  private limitMilligas: number;
  /**
   * Receives every charge counted: the gas log (`env-gaslog`) or a gas profiler (profile.ts);
   * null almost always.
   */
  recorder: ChargeRecorder | null = null;

  constructor(
    private currentModel: GasModel = FREE_GAS_MODEL,
    limitMilligas: number | null = null,
  ) {
    this.config = currentModel.config;
    this.limitMilligas = limitMilligas ?? Number.POSITIVE_INFINITY;
    this.charging = limitMilligas !== null;
  }

  get model(): GasModel {
    return this.currentModel;
  }

  set model(model: GasModel) {
    this.currentModel = model;
    this.config = model.config;
  }

  /** The limit in milligas, or null when none is set. */
  get limit(): number | null {
    return this.charging ? this.limitMilligas : null;
  }

  /** Sets the limit (null: stop counting). */
  setLimit(limitMilligas: number | null): void {
    this.limitMilligas = limitMilligas ?? Number.POSITIVE_INFINITY;
    this.charging = limitMilligas !== null;
  }

  /**
   * Adds `milligas` (when counting) and fails once the total passes the limit. `what` names the
   * charge in the gas log.
   */
  charge(milligas: number, what = ""): void {
    if (!this.charging) return;
    const total = saturate(this.total + milligas);
    this.total = total;
    if (this.recorder !== null) this.recorder.record(milligas, what);
    if (total > this.limitMilligas) {
      throw new PactError(
        "gas",
        `Gas limit "${milligasToGas(this.limitMilligas)}" exceeded: ${milligasToGas(total)}`,
      );
    }
  }

  /**
   * Prices a size estimate of `bytes` (Pact's `sizeOf` stops counting once the bytes would cost
   * more than the gas left, and charges that, failing).
   */
  checkSize(bytes: number): void {
    if (!this.charging) return;
    const perByte = this.config.sizeOfBytePenalty;
    if (bytes > Math.floor((this.limitMilligas - this.total) / perByte)) {
      this.charge(bytes * perByte, "GSizeOf");
    }
  }

  /**
   * Counts `steps` of work the table prices below its cost here (see
   * {@link UNPRICED_STEPS_ALLOWANCE}), before it is done: nothing is charged, so the gas reported
   * stays Pact's, but once the steps pass the allowance plus
   * {@link UNPRICED_STEPS_PER_MILLIGAS} per milligas charged the command fails with a gas error
   * naming the work (`what`). A no-op when nothing is counted.
   */
  unpriced(steps: number, what: string): void {
    if (!this.charging) return;
    this.unpricedSteps += steps;
    const allowed = UNPRICED_STEPS_ALLOWANCE + this.total * UNPRICED_STEPS_PER_MILLIGAS;
    if (this.unpricedSteps > allowed) {
      throw new PactError(
        "gas",
        `Work that gas does not price exceeded: ${what} would bring it to ${this.unpricedSteps} steps; a command may do ${UNPRICED_STEPS_ALLOWANCE} plus ${UNPRICED_STEPS_PER_MILLIGAS} per milligas charged (${allowed} so far)`,
      );
    }
  }

  used(): number {
    return this.total;
  }

  setUsed(milligas: number): void {
    this.total = milligas;
    // Starting again from nothing (the REPL's `env-gas 0`) starts the unpriced work again too.
    if (milligas === 0) this.unpricedSteps = 0;
  }

  /** Whether charges are being logged. */
  get logging(): boolean {
    return this.recorder instanceof GasLog;
  }

  /** Starts logging charges (a no-op when already logging). */
  startLog(): void {
    if (!this.logging) this.recorder = new GasLog();
  }

  /** The charges logged so far; the log starts again empty. */
  takeLog(): GasLogEntry[] {
    return this.recorder instanceof GasLog ? this.recorder.take() : [];
  }
}

/** The charges since the log was last read. */
class GasLog implements ChargeRecorder {
  private entries: GasLogEntry[] = [];
  record(milligas: number, what: string): void {
    this.entries.push({ what, milligas });
  }
  take(): GasLogEntry[] {
    const entries = this.entries;
    this.entries = [];
    return entries;
  }
}

/** Pact's free gas: nothing is counted until a limit is set. */
export class FreeGasMeter extends PactGasMeter {
  constructor() {
    super(FREE_GAS_MODEL, null);
  }
}

/**
 * The table model counting up to a limit in whole gas (null: counting without a limit, as a
 * server reporting the gas of commands without one does).
 */
export class LimitedGasMeter extends PactGasMeter {
  constructor(limitGas: number | null) {
    super(
      TABLE_GAS_MODEL,
      limitGas === null ? Number.POSITIVE_INFINITY : limitGas * MILLIGAS_PER_GAS,
    );
  }
}
