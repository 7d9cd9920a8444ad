/**
 * Pact 5 surface syntax: tokens, parse tree, lexer, parser, syntax errors and limits.
 *
 * ```ts
 * const forms = parseReplProgram(source, "test.repl"); // .repl files
 * const code = parseProgram(cmdCode);                   // .pact files, transaction code
 * ```
 *
 * Both throw `PactSyntaxError` (`message` = `file:LINE:COL: reason`, 1-based); show it with
 * `renderSyntaxError(error, source)`. Spans are 0-based, as in Pact; `source.slice(span.start,
 * span.end)` is a node's text (a module's code for hashing).
 */
export type * from "./ast.ts";
export {
  PactSyntaxError,
  renderSourceError,
  renderSyntaxError,
  type SourceErrorReport,
  type SyntaxErrorPhase,
} from "./errors.ts";
export { DEFAULT_FILE_NAME, lex } from "./lexer.ts";
export { MAX_NESTING_DEPTH, MAX_SOURCE_LENGTH } from "./limits.ts";
export { parseExpression, parseProgram, parseReplProgram } from "./parser.ts";
export { joinSpans, type Span } from "./span.ts";
export {
  KEYWORDS,
  type Keyword,
  PUNCTUATION,
  type Punctuation,
  TOKEN_KINDS,
  type Token,
  type TokenKind,
} from "./tokens.ts";
