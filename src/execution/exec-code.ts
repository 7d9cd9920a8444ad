/**
 * Running the code of an `exec` payload: every top-level form parsed, then compiled and evaluated
 * in order; the result is the last form's (a module definition's is its "Loaded module …" text).
 */
import { type Natives, PactError, type Runtime, runSource } from "../pact/index.ts";
import type { PactValue } from "../pact/values/index.ts";

/** The file name spans in a transaction's code (and modules it defines) refer to. */
export const EXEC_SOURCE_NAME = "(tx)";

export function runExecCode(rt: Runtime, code: string, natives: Natives): PactValue {
  const results = runSource(rt, code, { file: EXEC_SOURCE_NAME, natives });
  const last = results.at(-1);
  if (last === undefined) throw new PactError("execution", "empty input");
  return last.kind === "value" ? last.value : last.text;
}
