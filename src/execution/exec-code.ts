/**
 * Running the code of an `exec` payload: every top-level form parsed, then compiled and evaluated
 * in order; the result is the last form's (a module definition's is its "Loaded module …" text).
 */
import type { CompileUnit } from "../pact/compile/context.ts";
import type { Runtime } from "../pact/eval/runtime.ts";
import { runTopLevel } from "../pact/eval/toplevel.ts";
import { PactError } from "../pact/runtime/errors.ts";
import type { NativeDef } from "../pact/runtime/types.ts";
import { parseProgram } from "../pact/syntax/parser.ts";
import type { PactValue } from "../pact/values/types.ts";

/** The file name spans in a transaction's code (and modules it defines) refer to. */
export const EXEC_SOURCE_NAME = "(tx)";

export function runExecCode(
  rt: Runtime,
  code: string,
  natives: ReadonlyMap<string, NativeDef>,
): PactValue {
  const program = parseProgram(code, EXEC_SOURCE_NAME);
  if (program.length === 0) throw new PactError("execution", "empty input");
  const unit: CompileUnit = {
    file: EXEC_SOURCE_NAME,
    source: code,
    natives,
    names: rt.loaded,
    coverage: null,
  };
  let last: PactValue = "";
  for (const form of program) {
    const result = runTopLevel(rt, form, unit);
    last = result.kind === "value" ? result.value : result.text;
  }
  return last;
}
