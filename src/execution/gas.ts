/**
 * Gas for one command. Free gas charges nothing and reports 0 (the development server's default,
 * as in Pact's server). Metered gas counts the evaluator's charges — the natives' table costs, or
 * a constant amount per charged action (Pact 4's `constGasModel`, the server's `gasRate`) — up to
 * an optional limit, and reports the total rounded up to whole gas.
 */
import { FreeGasMeter, type GasMeter, LimitedGasMeter, MILLIGAS_PER_GAS } from "../pact/index.ts";

export type GasSettings =
  | { readonly kind: "free" }
  | {
      readonly kind: "metered";
      /** Gas limit of the command; null for none. */
      readonly limit: number | null;
      /** Gas per charged action instead of the table costs; null for the table costs. */
      readonly perAction: number | null;
    };

export const FREE_GAS: GasSettings = { kind: "free" };

export function gasMeterFor(settings: GasSettings): GasMeter {
  if (settings.kind === "free") return new FreeGasMeter();
  const meter = new LimitedGasMeter(settings.limit);
  return settings.perAction === null ? meter : new ConstantRateGasMeter(meter, settings.perAction);
}

/** Whole gas used so far: milligas rounded up (Pact's `milliGasToGas`). */
export function gasUsed(meter: GasMeter): number {
  return Math.ceil(meter.used() / MILLIGAS_PER_GAS);
}

/** Charges `gasPerAction` for every charge, whatever its table cost. */
class ConstantRateGasMeter implements GasMeter {
  private readonly milligasPerAction: number;
  constructor(
    private readonly inner: LimitedGasMeter,
    gasPerAction: number,
  ) {
    this.milligasPerAction = gasPerAction * MILLIGAS_PER_GAS;
  }
  charge(_milligas: number): void {
    this.inner.charge(this.milligasPerAction);
  }
  used(): number {
    return this.inner.used();
  }
  setUsed(milligas: number): void {
    this.inner.setUsed(milligas);
  }
}
