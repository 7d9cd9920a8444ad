/**
 * Running a command's verifiers before its code, as Chainweb does (`runVerifierPlugins`): each
 * verifier the command names must be a plugin the network enables, and each plugin checks its
 * proof against the capabilities the verifier grants, charging gas from what the command has
 * left. The code then sees the verifiers' capabilities through `enforce-verifier`.
 *
 * The plugins themselves are Chainweb's and live with the node (src/node/verifiers); this module
 * only runs them and turns their gas into a charge on the command's meter.
 */
import type { CommandPayload } from "../command/index.ts";
import { type GasMeter, MILLIGAS_PER_GAS } from "../pact/index.ts";
import {
  type CapToken,
  compareCodePoints,
  decodePactValue,
  type PactValue,
  pactValueEquals,
} from "../pact/values/index.ts";
import { capToken } from "./cap-token.ts";

/** A verifier's failure: its message is the command's error message (an `EvalError`). */
export class VerifierError extends Error {
  override readonly name = "VerifierError";
}

/**
 * The gas a plugin may spend, in whole gas (Chainweb's plugins count whole gas): charging more
 * than is left, or a negative amount, fails with Chainweb's words.
 */
export class VerifierGas {
  constructor(private remaining: number) {}

  get left(): number {
    return this.remaining;
  }

  charge(gas: number): void {
    if (gas < 0) {
      throw new VerifierError(`verifier attempted to charge negative gas amount: ${gas}`);
    }
    if (gas > this.remaining) {
      throw new VerifierError(
        `gas exhausted in verifier. attempted to charge ${gas} with only ${this.remaining} remaining.`,
      );
    }
    this.remaining -= gas;
  }
}

/**
 * One verifier plugin: checks `proof` against `caps` (the verifier's capabilities, without
 * duplicates), charging `gas`; throws a {@link VerifierError} when the proof does not hold.
 */
export type VerifierPlugin = (
  proof: PactValue,
  caps: readonly CapToken[],
  gas: VerifierGas,
) => void;

/** The plugins a network enables, by verifier name. */
export type VerifierPlugins = ReadonlyMap<string, VerifierPlugin>;

/**
 * Runs the command's verifiers with `plugins`, then charges `meter` what they spent. Verifiers
 * are run grouped by name in name order (Chainweb merges them into a map), each group in the
 * command's order; the first unknown name or failing proof stops the command.
 */
export function runVerifierPlugins(
  plugins: VerifierPlugins,
  payload: CommandPayload,
  meter: GasMeter,
): void {
  const verifiers = payload.verifiers ?? [];
  if (verifiers.length === 0) return;
  const byName = new Map<string, { proof: PactValue; caps: CapToken[] }[]>();
  for (const v of verifiers) {
    const caps: CapToken[] = [];
    for (const cap of v.clist.map(capToken)) {
      if (!caps.some((c) => pactValueEquals(c, cap))) caps.push(cap);
    }
    const group = byName.get(v.name) ?? [];
    group.push({ proof: decodePactValue(v.proof), caps });
    byName.set(v.name, group);
  }
  const gasLimit = payload.meta.kind === "public" ? payload.meta.gasLimit : 0;
  const initialMilligas = Math.max(0, gasLimit * MILLIGAS_PER_GAS - meter.used());
  const gas = new VerifierGas(Math.ceil(initialMilligas / MILLIGAS_PER_GAS));
  for (const name of [...byName.keys()].sort(compareCodePoints)) {
    const plugin = plugins.get(name);
    if (plugin === undefined) throw new VerifierError(`verifier does not exist: ${name}`);
    for (const { proof, caps } of byName.get(name)!) runPlugin(plugin, proof, caps, gas);
  }
  // What the plugins left, in milligas, may exceed what the command had (whole-gas rounding):
  // then nothing is charged.
  const leftMilligas = gas.left * MILLIGAS_PER_GAS;
  if (leftMilligas < initialMilligas) meter.charge(initialMilligas - leftMilligas, "verifiers");
}

/** A plugin's own failure stands; anything else it throws is Chainweb's "uncaught exception". */
function runPlugin(
  plugin: VerifierPlugin,
  proof: PactValue,
  caps: readonly CapToken[],
  gas: VerifierGas,
): void {
  try {
    plugin(proof, caps, gas);
  } catch (e) {
    throw e instanceof VerifierError ? e : new VerifierError("Uncaught exception in verifier");
  }
}
