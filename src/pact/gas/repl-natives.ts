/**
 * The REPL's gas natives, with Pact 5's texts: `env-gasmodel` (only `"table"` can be set),
 * `env-gaslimit` (turns counting on), `env-gas` and `env-milligas` (read or set the gas used),
 * `env-set-milligas`, and `env-gaslog` (the first call starts a log, later calls return it with
 * its total). Like every REPL native they cost no gas themselves.
 */
import { argsError } from "../runtime/native-errors.ts";
import type { NativeContext, NativeDef, RuntimeValue } from "../runtime/types.ts";
import { MILLIGAS_PER_GAS } from "./config.ts";
import { type GasMeter, milligasToGas, PactGasMeter, TABLE_GAS_MODEL } from "./meter.ts";

/** The part of the execution environment these natives change. */
interface WithGas {
  gas: GasMeter;
}

/** The session's meter, as a pricing meter (a meter of another kind is replaced by one). */
function meterOf(ctx: NativeContext): PactGasMeter {
  const env = ctx.env as WithGas;
  if (env.gas instanceof PactGasMeter) return env.gas;
  const meter = new PactGasMeter();
  meter.setUsed(env.gas.used());
  env.gas = meter;
  return meter;
}

function gasNative(
  name: string,
  minArgs: number,
  maxArgs: number,
  impl: (meter: PactGasMeter, args: readonly RuntimeValue[]) => RuntimeValue,
): NativeDef {
  return { name, minArgs, maxArgs, gas: 0, impl: (ctx, args) => impl(meterOf(ctx), args) };
}

function integerArg(name: string, args: readonly RuntimeValue[]): bigint {
  const g = args[0];
  if (typeof g !== "bigint") throw argsError(name, args);
  return g;
}

/** A count of gas or milligas as Pact stores it (an unsigned word: negatives become 0). */
function unsigned(n: bigint): number {
  return n < 0n ? 0 : Number(n);
}

export const GAS_REPL_NATIVES: readonly NativeDef[] = [
  gasNative("env-gas", 0, 1, (meter, args) => {
    if (args.length === 0) return BigInt(milligasToGas(meter.used()));
    const g = integerArg("env-gas", args);
    meter.setUsed(unsigned(g) * MILLIGAS_PER_GAS);
    return `Set gas to ${g}`;
  }),
  gasNative("env-milligas", 0, 1, (meter, args) => {
    if (args.length === 0) return BigInt(meter.used());
    const g = integerArg("env-milligas", args);
    meter.setUsed(unsigned(g));
    return `Set milligas to${g}`;
  }),
  gasNative("env-set-milligas", 1, 1, (meter, args) => {
    const g = integerArg("env-set-milligas", args);
    meter.setUsed(unsigned(g));
    return `Set milligas to${g}`;
  }),
  gasNative("env-gaslimit", 1, 1, (meter, args) => {
    const g = integerArg("env-gaslimit", args);
    meter.setLimit(unsigned(g) * MILLIGAS_PER_GAS);
    return `Set gas limit to ${g}`;
  }),
  gasNative("env-gaslog", 0, 0, (meter) => {
    if (!meter.logging) {
      meter.startLog();
      return ["Enabled gas log"];
    }
    const entries = meter.takeLog();
    let total = 0;
    for (const e of entries) total += e.milligas;
    return [`TOTAL: ${total}mG`, ...entries.map((e) => `${e.what}: ${e.milligas}mG`)];
  }),
  gasNative("env-gasmodel", 0, 1, (meter, args) => {
    if (args.length === 0) {
      return `Current gas model is '${meter.model.name}': ${meter.model.description}`;
    }
    if (args[0] !== "table") throw argsError("env-gasmodel", args);
    meter.model = TABLE_GAS_MODEL;
    return `Set gas model to ${TABLE_GAS_MODEL.description}`;
  }),
];
