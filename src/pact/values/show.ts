/**
 * The two text forms of Pact values.
 *
 * - {@link pactValueToPretty}: the REPL / `print` / `expect` form (Pact's `Pretty` instances,
 *   laid out by prettyprinter at 80 columns): lists `[1 2 3]`, objects `{"a": 1,"b": 2}`,
 *   decimals `2.0` for integral values, strings in quotes, guards as records such as
 *   `KeySet {keys: [k],pred: keys-all}` (which break over lines when too long).
 * - {@link pactValueToText}: the `show` / `format` form (`pactValueToText`): lists `[1, 2, 3]`,
 *   decimals with `.0` only when they have no places, never any line breaks.
 *
 * In both, object fields are in code point order and strings are quoted without escaping.
 */
import { Decimal, decimalToPretty, decimalToShowText } from "./decimal.ts";
import { cat, catAll, type Doc, encloseSep, hsep, list, render, text } from "./doc.ts";
import { renderModuleName } from "./names.ts";
import { compareCodePoints } from "./text.ts";
import { PactTime } from "./time.ts";
import { formatIsoTime, showTime } from "./time-format.ts";
import type { Guard, PactList, PactObject, PactValue, TableRef, TaggedValue } from "./types.ts";

function isList(v: PactValue): v is PactList {
  return Array.isArray(v);
}

function sortedEntries(o: PactObject): [string, PactValue][] {
  return [...o.entries()].sort((a, b) => compareCodePoints(a[0], b[0]));
}

function tableName(t: TableRef): string {
  return `${renderModuleName(t.module)}_${t.name}`;
}

function keySetRefName(g: Guard & { kind: "keyset-ref" }): string {
  return g.namespace === null ? g.name : `${g.namespace}.${g.name}`;
}

// ---------------------------------------------------------------------------------------------
// show / format text

/** The `show` / `format` text of a value (`format` writes string arguments raw instead). */
export function pactValueToText(v: PactValue): string {
  switch (typeof v) {
    case "string":
      return `"${v}"`;
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return v.toString();
  }
  if (v instanceof Decimal) return decimalToShowText(v);
  if (v instanceof PactTime) return `"${formatIsoTime(v)}"`;
  if (isList(v)) return textList(v);
  if (v instanceof Map) {
    return `{${sortedEntries(v)
      .map(([k, x]) => `"${k}": ${pactValueToText(x)}`)
      .join(",")}}`;
  }
  const t = v as TaggedValue;
  switch (t.kind) {
    case "unit":
      return "()";
    case "modref":
      return renderModuleName(t.module);
    case "cap-token":
      return `CapToken(${t.name}${t.args.map((a) => ` ${pactValueToText(a)}`).join("")})`;
    case "table":
      return tableName(t);
    case "keyset":
      return `KeySet {keys: [${t.keys.join(", ")}],pred: ${t.pred}}`;
    case "keyset-ref":
      return `'${keySetRefName(t)}`;
    case "user-guard":
      return `UserGuard {fun: ${t.fun},args: ${textList(t.args)}}`;
    case "capability-guard":
      return `CapabilityGuard {name: ${t.name},args: ${textList(t.args)},pactId: ${t.pactId ?? ""}}`;
    case "module-guard":
      return `ModuleGuard {module: ${renderModuleName(t.module)},name: ${t.name}}`;
    case "pact-guard":
      return `PactGuard {pactId: ${t.pactId},name: ${t.name}}`;
  }
}

function textList(items: PactList): string {
  return `[${items.map(pactValueToText).join(", ")}]`;
}

// ---------------------------------------------------------------------------------------------
// Pretty (REPL) form

/** The REPL form of a value, as `pretty` renders it. */
export function pactValueToPretty(v: PactValue): string {
  return render(prettyDoc(v));
}

function record(name: string, fields: Doc[]): Doc {
  return cat(`${name} `, encloseSep("{", "}", ",", fields));
}

function prettyGuard(g: Guard): Doc {
  switch (g.kind) {
    case "keyset":
      return record("KeySet", [cat("keys: ", list(g.keys.map(text))), `pred: ${g.pred}`]);
    case "keyset-ref":
      return `'${keySetRefName(g)}`;
    case "user-guard":
      return record("UserGuard", [
        text(`fun: ${g.fun}`),
        cat("args: ", list(g.args.map(prettyDoc))),
      ]);
    case "capability-guard":
      return record("CapabilityGuard", [
        text(`name: ${g.name}`),
        cat("args: ", list(g.args.map(prettyDoc))),
        text(`pactId: ${g.pactId ?? ""}`),
      ]);
    case "module-guard":
      return record("ModuleGuard", [
        `module: ${renderModuleName(g.module)}`,
        text(`name: ${g.name}`),
      ]);
    case "pact-guard":
      return record("PactGuard", [text(`pactId: ${g.pactId}`), text(`name: ${g.name}`)]);
  }
}

function prettyDoc(v: PactValue): Doc {
  switch (typeof v) {
    case "string":
      return text(`"${v}"`);
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return v.toString();
  }
  if (v instanceof Decimal) return decimalToPretty(v);
  if (v instanceof PactTime) return `"${formatIsoTime(v)}"`;
  if (isList(v)) return cat("[", hsep(v.map(prettyDoc)), "]");
  if (v instanceof Map) {
    const fields: Doc[] = [];
    sortedEntries(v).forEach(([k, x], i) => {
      if (i > 0) fields.push(",");
      fields.push(text(`"${k}"`), ": ", prettyDoc(x));
    });
    return catAll(["{", ...fields, "}"]);
  }
  const t = v as TaggedValue;
  switch (t.kind) {
    case "unit":
      return "()";
    case "modref":
      return renderModuleName(t.module);
    case "cap-token":
      return catAll([
        "CapToken(",
        text(t.name),
        ...t.args.flatMap((a) => [" ", prettyDoc(a)]),
        ")",
      ]);
    case "table":
      return text(tableName(t));
    default:
      return prettyGuard(t);
  }
}

// ---------------------------------------------------------------------------------------------
// Abbreviated form (arguments in stack frames of error messages)

/** Renders a doc and cuts it to `limit` − 3 code points plus `...` when longer than that. */
function abbreviate(limit: number, doc: Doc): Doc {
  const rendered = render(doc);
  const chars = Array.from(rendered);
  if (chars.length <= limit - 3) return text(rendered);
  return text(`${chars.slice(0, limit - 3).join("")}...`);
}

function abbrevGuard(g: Guard): Doc {
  switch (g.kind) {
    case "user-guard":
      return record("UserGuard", [
        text(`fun: ${g.fun}`),
        cat("args: ", list(g.args.map(abbrevDoc))),
      ]);
    case "capability-guard":
      return record("CapabilityGuard", [
        text(`name: ${g.name}`),
        cat("args: ", list(g.args.map(abbrevDoc))),
        text(`pactId: ${g.pactId ?? ""}`),
      ]);
    default:
      return prettyGuard(g);
  }
}

function abbrevDoc(v: PactValue): Doc {
  switch (typeof v) {
    case "string": {
      const chars = Array.from(v);
      return text(chars.length < 15 ? `"${v}"` : `"${chars.slice(0, 12).join("")}..."`);
    }
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return abbreviate(15, v.toString());
  }
  if (v instanceof Decimal)
    return v.isIntegral() ? decimalToPretty(v) : abbreviate(15, v.toString());
  if (v instanceof PactTime) return showTime(v);
  if (isList(v)) return cat("[", abbreviate(15, hsep(v.slice(0, 10).map(abbrevDoc))), "]");
  if (v instanceof Map) {
    const fields: Doc[] = [];
    sortedEntries(v).forEach(([k, x], i) => {
      if (i > 0) fields.push(",");
      fields.push(text(`"${k}"`), ": ", prettyDoc(x));
    });
    return cat("{", abbreviate(15, catAll(fields)), "}");
  }
  const t = v as TaggedValue;
  switch (t.kind) {
    case "cap-token":
      return catAll([
        "(",
        text(`${t.name}.{${t.moduleHash}}`),
        ...t.args.flatMap((a) => [" ", abbrevDoc(a)]),
        ")",
      ]);
    case "table":
      return abbreviate(20, text(tableName(t)));
    case "unit":
    case "modref":
      return prettyDoc(t);
    default:
      return abbrevGuard(t);
  }
}

/**
 * The abbreviated form Pact uses for arguments in stack frames: strings of 15 or more code
 * points and other long renderings cut to 12 plus `...`, at most 10 list elements, times as
 * `2016-07-22 12:00:00 UTC`, capability tokens as `(m.C.{hash} args…)`.
 */
export function pactValueToAbbrev(v: PactValue): string {
  return render(abbrevDoc(v));
}
