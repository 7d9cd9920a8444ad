/**
 * Running a `cont` payload: continuing a defpact at a step, or rolling its current step back,
 * from its stored state — or, with a proof, from the state the proof establishes (cross-chain;
 * the caller supplies the verifier). The transaction data is already in the environment.
 */
import type { ContMessage } from "../command/index.ts";
import { type ContinuationVerifier, continueDefPact, type Runtime } from "../pact/index.ts";
import type { PactValue } from "../pact/values/index.ts";

export function runContinuation(
  rt: Runtime,
  message: ContMessage,
  verifier: ContinuationVerifier | null,
): PactValue {
  const { pactId, step, rollback, proof } = message;
  return continueDefPact(rt, { pactId, step, rollback, proof }, verifier);
}
