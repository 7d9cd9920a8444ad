/** The tokens of Pact 5 source (`Pact.Core.Syntax.LexUtils.Token`). */
import type { Span } from "./span.ts";

/**
 * Reserved words. Each is its own token kind, spelled as in the source; none can be used as an
 * identifier. (`step`, `bless`, `use` … are reserved even outside the forms that use them.)
 */
export const KEYWORDS = [
  "let",
  "let*",
  "lambda",
  "module",
  "interface",
  "use",
  "defun",
  "defcap",
  "defconst",
  "defschema",
  "deftable",
  "defpact",
  "bless",
  "implements",
  "step",
  "step-with-rollback",
  "true",
  "false",
  "@doc",
  "@model",
  "@event",
  "@managed",
] as const;

export type Keyword = (typeof KEYWORDS)[number];

export const PUNCTUATION = ["(", ")", "[", "]", "{", "}", ",", ":", "::", ":=", "."] as const;

export type Punctuation = (typeof PUNCTUATION)[number];

/**
 * - `ident`: an identifier; `value` is its text.
 * - `number`: an integer literal `-?[0-9]+`; `value` is its text. Decimals are parsed from
 *   `number "." number`, so `1.5` is three tokens (and so is `1 . 5`, as in Pact).
 * - `string`: a `"…"` literal; `value` is the decoded text (escapes applied).
 * - `symbol`: a tick symbol `'name`; `value` is the name without the tick.
 * - keywords and punctuation: `value` is their source text.
 */
export type TokenKind = Punctuation | "ident" | "number" | "string" | "symbol" | Keyword;

/** Every token kind; a kind's index here is its numeric code inside the lexer and parser. */
export const TOKEN_KINDS: readonly TokenKind[] = [
  ...PUNCTUATION,
  "ident",
  "number",
  "string",
  "symbol",
  ...KEYWORDS,
];

export interface Token {
  readonly kind: TokenKind;
  readonly value: string;
  readonly span: Span;
}
