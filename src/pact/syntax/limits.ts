/** Limits that keep hostile or broken input from exhausting the parser. */

/**
 * The largest source the lexer accepts, in UTF-16 code units (16 Mi). Real contracts and
 * `.repl` scripts are well under 1 MB; on chain, gas bounds code size far below this.
 */
export const MAX_SOURCE_LENGTH = 16 * 1024 * 1024;

/**
 * How deeply `(`, `[` and `{` forms (and list types `[[t]]`) may nest. The parser is recursive;
 * this keeps 100,000 `(` a clean syntax error instead of a stack overflow, and keeps trees shallow
 * enough for the recursive passes that follow. Real contracts nest well under 30 levels.
 */
export const MAX_NESTING_DEPTH = 256;
