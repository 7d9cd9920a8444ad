/**
 * Uncaught errors as the Pact command line shows them: `file:LINE:COL: message`, the source
 * lines with a `^^^` marker, then one `  at(f args):file:span` line per stack frame.
 */
import { abbrevPretty } from "../eval/display.ts";
import { PactError, type StackFrame } from "../runtime/errors.ts";
import { PactSyntaxError, renderSourceError, renderSyntaxError } from "../syntax/errors.ts";
import type { Span } from "../syntax/span.ts";
import { spanText } from "./session.ts";

const NO_SPAN: Span = { line: 0, col: 0, endLine: 0, endCol: 0, start: 0, end: 0 };

function frameLine(f: StackFrame): string {
  const args = (f.args ?? []).map((a) => ` ${abbrevPretty(a)}`).join("");
  const where = f.span === undefined ? "" : `:${f.file ?? ""}:${spanText(f.span)}`;
  return `  at(${f.name}${args})${where}`;
}

/**
 * Renders `e` with the source of its file from `sources`. Errors that are not Pact errors are bugs
 * and are rethrown.
 */
export function renderError(
  e: unknown,
  sources: ReadonlyMap<string, string>,
  file: string,
): string {
  if (e instanceof PactSyntaxError) return renderSyntaxError(e, sources.get(e.file) ?? "");
  if (!(e instanceof PactError)) throw e;
  const errorFile = e.file ?? file;
  return renderSourceError({
    file: errorFile,
    source: sources.get(errorFile) ?? "",
    span: e.span ?? NO_SPAN,
    message: e.message,
    frames: e.callStack.map(frameLine),
  });
}
