/**
 * Running a `cont` payload: continuing a defpact at a step (or rolling it back). Needs the
 * defpact engine of the state layer; until it is available the command fails with a clear error.
 */
import type { ContMessage } from "../command/index.ts";
import type { Runtime } from "../pact/eval/runtime.ts";
import { PactError } from "../pact/runtime/errors.ts";
import type { PactValue } from "../pact/values/types.ts";

export function runContinuation(_rt: Runtime, message: ContMessage): PactValue {
  throw new PactError(
    "execution",
    `Cannot continue defpact ${message.pactId} at step ${message.step}: continuation commands are not supported yet`,
  );
}
