/**
 * A small pretty-printing document model with the layout of Haskell's `prettyprinter`
 * (`layoutPretty` with the default 80 columns, ribbon 1.0), which Pact uses to print values in
 * the REPL. Only the constructs Pact's value printers use are modelled: text, optional line
 * breaks, alternatives for flat/broken layout, and groups. Nothing is indented.
 *
 * A group is laid out flat when its flat text, followed by the rest of the document up to the
 * next line break, fits in the remaining width; otherwise its line breaks are taken.
 */

export type Doc =
  | string
  | { readonly t: "cat"; readonly parts: readonly Doc[] }
  /** A line break, or `flat` text when laid out flat. */
  | { readonly t: "line"; readonly flat: string }
  /** `normal` in broken layout, `flat` when flattened (prettyprinter's `flatAlt`). */
  | { readonly t: "alt"; readonly normal: Doc; readonly flat: Doc }
  | { readonly t: "group"; readonly doc: Doc };

/** prettyprinter's default page width. */
export const PAGE_WIDTH = 80;

export const line: Doc = { t: "line", flat: " " };
export const softLine: Doc = { t: "line", flat: "" };

export function cat(...parts: Doc[]): Doc {
  return { t: "cat", parts };
}

/**
 * {@link cat} of a list of any length: spreading a long list into `cat`'s arguments would
 * exceed the engine's stack (a list of 200,000 values has 400,000 parts).
 */
export function catAll(parts: readonly Doc[]): Doc {
  return { t: "cat", parts };
}

export function group(doc: Doc): Doc {
  return { t: "group", doc };
}

/** Text that may contain newlines: each one becomes a `line` (a space when flattened). */
export function text(s: string): Doc {
  if (!s.includes("\n")) return s;
  const parts: Doc[] = [];
  s.split("\n").forEach((piece, i) => {
    if (i > 0) parts.push(line);
    parts.push(piece);
  });
  return catAll(parts);
}

/** Docs separated by single spaces (`hsep`). */
export function hsep(docs: readonly Doc[]): Doc {
  const parts: Doc[] = [];
  docs.forEach((d, i) => {
    if (i > 0) parts.push(" ");
    parts.push(d);
  });
  return catAll(parts);
}

/** prettyprinter's `encloseSep`: `l d1 sep d2 … r`, each separator on a new line if broken. */
export function encloseSep(left: Doc, right: Doc, separator: Doc, docs: readonly Doc[]): Doc {
  if (docs.length === 0) return cat(left, right);
  if (docs.length === 1) return cat(left, docs[0] as Doc, right);
  const parts: Doc[] = [];
  docs.forEach((d, i) => {
    if (i > 0) parts.push(softLine);
    parts.push(i === 0 ? cat(left, d) : cat(separator, d));
  });
  return cat(group(catAll(parts)), right);
}

/** prettyprinter's `list`: `[a, b]`, or `[ a\n, b ]` when it does not fit. */
export function list(docs: readonly Doc[]): Doc {
  return group(
    encloseSep(
      { t: "alt", normal: "[ ", flat: "[" },
      { t: "alt", normal: " ]", flat: "]" },
      ", ",
      docs,
    ),
  );
}

const FLAT = 1;
const BROKEN = 0;

/** A work list of docs still to lay out, each with its mode. */
interface Item {
  readonly mode: number;
  readonly doc: Doc;
  readonly next: Item | null;
}

function push(docs: readonly Doc[], mode: number, next: Item | null): Item | null {
  let list = next;
  for (let i = docs.length - 1; i >= 0; i--) list = { mode, doc: docs[i] as Doc, next: list };
  return list;
}

/** Code points, as prettyprinter measures text. */
function width(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n--;
  }
  return n;
}

/** Whether the items fit in `remaining` columns up to their first line break. */
function fits(remaining: number, items: Item | null): boolean {
  let w = remaining;
  let list = items;
  while (list !== null) {
    if (w < 0) return false;
    const item: Item = list;
    const { mode, doc } = item;
    list = item.next;
    if (typeof doc === "string") {
      w -= width(doc);
      continue;
    }
    switch (doc.t) {
      case "cat":
        list = push(doc.parts, mode, list);
        break;
      case "line":
        if (mode === BROKEN) return true;
        w -= width(doc.flat);
        break;
      case "alt":
        list = { mode, doc: mode === FLAT ? doc.flat : doc.normal, next: list };
        break;
      case "group": {
        // a later group is laid out as the renderer would: flat if it fits from here
        const flat: Item = { mode: FLAT, doc: doc.doc, next: list };
        list = mode === FLAT || fits(w, flat) ? flat : { mode: BROKEN, doc: doc.doc, next: list };
        break;
      }
    }
  }
  return w >= 0;
}

/** Lays the document out in {@link PAGE_WIDTH} columns. */
export function render(doc: Doc): string {
  let out = "";
  let column = 0;
  let list: Item | null = { mode: BROKEN, doc, next: null };
  while (list !== null) {
    const item: Item = list;
    const { mode, doc: d } = item;
    list = item.next;
    if (typeof d === "string") {
      out += d;
      column += width(d);
      continue;
    }
    switch (d.t) {
      case "cat":
        list = push(d.parts, mode, list);
        break;
      case "line":
        if (mode === FLAT) {
          out += d.flat;
          column += width(d.flat);
        } else {
          out += "\n";
          column = 0;
        }
        break;
      case "alt":
        list = { mode, doc: mode === FLAT ? d.flat : d.normal, next: list };
        break;
      case "group": {
        const flat: Item = { mode: FLAT, doc: d.doc, next: list };
        list =
          mode === FLAT || fits(PAGE_WIDTH - column, flat)
            ? flat
            : { mode: BROKEN, doc: d.doc, next: list };
        break;
      }
    }
  }
  return out;
}
