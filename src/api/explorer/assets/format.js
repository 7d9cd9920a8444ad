// How Pact and Chainweb values are shown.

/** A Pact value of a result or event as text: decimals and integers without their wrappers. */
export function pactText(value) {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "decimal") return decimalText(value);
    if (keys.length === 1 && keys[0] === "int") return String(value.int);
  }
  if (typeof value === "number" && !Number.isInteger(value)) return decimalText(value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * A decimal (a JSON number, its text, or Pact's `{"decimal": text}`) written one way everywhere:
 * plain notation, no trailing zeros, at least one place, as Pact shows a decimal
 * (`100000000.0`, `99999998.99999768`).
 */
export function decimalText(value) {
  const text = plainDecimal(String(value?.decimal ?? value));
  if (!/^-?[0-9]+(\.[0-9]+)?$/.test(text)) return text;
  return text.includes(".") ? text : `${text}.0`;
}

const IDENT = "[A-Za-z%#+\\-_&$@<>=^?*!|/~][A-Za-z0-9%#+\\-_&$@<>=^?*!|/~]*";
/** A call of a module's function: `(m.f` or `(ns.m.f`. */
const MODULE_CALL = new RegExp(`\\((${IDENT})\\.(${IDENT})(?:\\.(${IDENT}))?[\\s)]`, "g");

/**
 * The modules whose functions a command's code calls, in order of first call: `coin` for
 * `(coin.transfer …`, `free.hello` for `(free.hello.greet …`. Read from the text alone, so a
 * string that looks like a call counts too; the module view says when no such module exists.
 */
export function calledModules(code) {
  const modules = new Set();
  for (const [, first, second, third] of code.matchAll(MODULE_CALL)) {
    modules.add(third === undefined ? first : `${first}.${second}`);
  }
  return [...modules];
}

/** A block creation time (microseconds since the epoch) as an ISO date. */
export function blockTime(micros) {
  return new Date(Number(micros) / 1000).toISOString().replace(".000Z", "Z");
}

/** A hash shortened for lists (the full hash is in the link's target). */
export function shortHash(hash) {
  return `${hash.slice(0, 10)}…`;
}

/** The outcome of a command result: "success", or "failure: <message>". */
export function outcomeText(result) {
  const status = result?.result?.status;
  if (status === "success") return "success";
  const message = result?.result?.error?.message;
  return message === undefined ? String(status) : `failure: ${message}`;
}

/** An event as `module.NAME(params…)`. */
export function eventText(event) {
  const module = event.module?.namespace
    ? `${event.module.namespace}.${event.module.name}`
    : event.module?.name;
  return `${module}.${event.name}(${(event.params ?? []).map(pactText).join(", ")})`;
}

/** Exponents a number's text is written out in full for; larger ones are shown as they are. */
const MAX_EXPANDED_EXPONENT = 100;
/** Significant digits a double always holds exactly. */
const EXACT_DIGITS = 15;
const NUMBER_TEXT = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

/** A JSON number's text in plain decimal notation (`1.100000015e8` → `110000001.5`), digit for digit. */
export function plainDecimal(text) {
  const match = NUMBER_TEXT.exec(text);
  if (match === null) return text;
  const [, sign, whole, fraction = "", exponentText = "0"] = match;
  const exponent = Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPANDED_EXPONENT) return text;
  const digits = whole + fraction;
  const point = whole.length + exponent;
  let plain;
  if (point <= 0) plain = `0.${"0".repeat(-point)}${digits}`;
  else if (point >= digits.length) plain = digits + "0".repeat(point - digits.length);
  else plain = `${digits.slice(0, point)}.${digits.slice(point)}`;
  plain = plain.replace(/^0+(?=[0-9])/, "");
  if (plain.includes(".")) plain = plain.replace(/0+$/, "").replace(/\.$/, "");
  return sign + plain;
}

/**
 * A JSON.parse reviver that keeps a number (other than a safe integer) written with an exponent
 * or with more digits than a double holds (a balance such as 1.100000015e8, a fee of 2.32e-6) as `{"decimal":"<plain text>"}`,
 * the form Pact gives such decimals, so it is shown digit for digit. It needs JSON.parse's
 * source text (Chromium 114, Firefox 135); older browsers get the parsed number.
 */
export function exactNumbers(_key, value, context) {
  const source = context?.source;
  if (typeof value !== "number" || source === undefined) return value;
  if (Number.isSafeInteger(value) && /^-?[0-9]+$/.test(source)) return value;
  const significant = source
    .replace(/[eE].*$/, "")
    .replace(/[^0-9]/g, "")
    .replace(/^0+/, "");
  if (/[eE]/.test(source) || significant.length > EXACT_DIGITS) {
    return { decimal: plainDecimal(source) };
  }
  return value;
}
