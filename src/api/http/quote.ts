/**
 * Naming a rejected value in an error text: at most a short prefix of it, and never by walking
 * into it (a body value may be nested thousands deep or be megabytes long).
 */

/** The most characters of a rejected string an error text quotes. */
export const MAX_QUOTED_CHARS = 64;

/** `"text"` as JSON, cut to {@link MAX_QUOTED_CHARS} characters with `…` and the full length. */
export function quoteText(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, MAX_QUOTED_CHARS))}… (${text.length} characters)`;
}

/** `text` cut to {@link MAX_QUOTED_CHARS} characters, with `…` when cut (for paths and headers). */
export function cutText(text: string): string {
  return text.length <= MAX_QUOTED_CHARS ? text : `${text.slice(0, MAX_QUOTED_CHARS)}…`;
}

/** A short description of a JSON body value: its kind, and a quoted prefix for strings. */
export function describeBodyValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") return `the string ${quoteText(value)}`;
  if (Array.isArray(value)) return `an array of ${value.length} element(s)`;
  if (typeof value === "object") return "an object";
  if (typeof value === "number") return `the number ${quoteText(String(value)).slice(1, -1)}`;
  return `${typeof value} ${quoteText(String(value)).slice(1, -1)}`;
}
