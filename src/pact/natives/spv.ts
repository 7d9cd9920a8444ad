/**
 * `verify-spv`: the object an SPV proof establishes, checked by the environment's verifier (on
 * the node, Chainweb's `TXOUT` proofs of another chain's command result; see src/node/spv.ts).
 * Without a verifier (the REPL, the development server) it fails as Pact's `noSPVSupport` does.
 */
import { runtimeOf } from "../eval/callables.ts";
import { PactError } from "../runtime/errors.ts";
import { argsError } from "../runtime/native-errors.ts";
import type { NativeDef } from "../runtime/types.ts";

/** Flat cost of `verify-spv` (the reference's table). */
export const VERIFY_SPV_GAS = 100_000;

/** What Pact's `noSPVSupport` answers. */
export const NO_SPV_VERIFICATION = "SPV verification not supported";

function spvFailure(reason: string): PactError {
  return new PactError("execution", `SPV verification failure: ${reason}`);
}

export const VERIFY_SPV: NativeDef = {
  name: "verify-spv",
  minArgs: 2,
  maxArgs: 2,
  gas: VERIFY_SPV_GAS,
  impl(ctx, args) {
    const [proofType, proof] = args;
    if (typeof proofType !== "string" || !(proof instanceof Map)) {
      throw argsError("verify-spv", args);
    }
    const verifier = runtimeOf(ctx).env.spv;
    if (verifier === undefined) throw spvFailure(NO_SPV_VERIFICATION);
    try {
      return verifier.verifySpv(proofType, proof);
    } catch (e) {
      if (e instanceof PactError || !(e instanceof Error)) throw e;
      throw spvFailure(e.message);
    }
  },
};
