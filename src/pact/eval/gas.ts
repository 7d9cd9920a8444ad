/**
 * Gas metering. The evaluator charges every native call's flat cost through `charge`, so the
 * meter sits on the hot path: the free meter (the REPL default) does nothing, the limited meter
 * adds and compares. Amounts are milligas (1 gas = 1000 milligas).
 */
import { PactError } from "../runtime/errors.ts";

export const MILLIGAS_PER_GAS = 1000;

export interface GasMeter {
  /** Adds `milligas`; throws a `gas` PactError when the total passes the limit. */
  charge(milligas: number): void;
  /** Milligas used so far. */
  used(): number;
  /** Sets the milligas used (the REPL's `env-gas`/`env-milligas` setters). */
  setUsed(milligas: number): void;
}

/** Charges nothing: Pact's free gas model. */
export class FreeGasMeter implements GasMeter {
  private total = 0;
  charge(_milligas: number): void {}
  used(): number {
    return this.total;
  }
  setUsed(milligas: number): void {
    this.total = milligas;
  }
}

/**
 * Counts milligas, failing with Pact's message once the total passes the limit (no limit: only
 * counts). Used by transactions (the command's gas limit) and the REPL's table gas model.
 */
export class LimitedGasMeter implements GasMeter {
  private total = 0;
  private limitMilligas: number;
  constructor(private limitGas: number | null) {
    this.limitMilligas = limitGas === null ? Number.POSITIVE_INFINITY : limitGas * MILLIGAS_PER_GAS;
  }
  charge(milligas: number): void {
    this.total += milligas;
    if (this.total > this.limitMilligas) {
      throw new PactError(
        "gas",
        `Gas limit "${this.limitGas}" exceeded: ${Math.ceil(this.total / MILLIGAS_PER_GAS)}`,
      );
    }
  }
  used(): number {
    return this.total;
  }
  setUsed(milligas: number): void {
    this.total = milligas;
  }
  setLimit(limitGas: number | null): void {
    this.limitGas = limitGas;
    this.limitMilligas = limitGas === null ? Number.POSITIVE_INFINITY : limitGas * MILLIGAS_PER_GAS;
  }
}
