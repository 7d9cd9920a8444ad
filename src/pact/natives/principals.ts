/**
 * Principals: the account names a guard determines (Pact's `Principal`), and the natives
 * `create-principal`, `is-principal`, `typeof-principal` and `validate-principal`.
 *
 * - `k:KEY`: a keyset of one ED25519 key (64 lowercase hex digits) with `keys-all`;
 * - `w:HASH:PRED`: any other keyset; HASH covers its keys (in order, concatenated);
 * - `r:NAME`: a keyset reference;
 * - `u:FUN:HASH`: a user guard; HASH covers its arguments' JSON encodings, concatenated;
 * - `m:MODULE:NAME`: a module guard;
 * - `p:PACTID:NAME`: a pact guard;
 * - `c:HASH`: a capability guard; HASH covers its name, arguments' JSON and pact id, if any.
 *
 * Every HASH is Blake2b-256 in unpadded base64url (43 characters).
 */
import { blake2b256, encodeBase64Url } from "../../crypto/index.ts";
import { BASIC_WORK_GAS } from "../gas/costs.ts";
import { isEd25519HexKey } from "../runtime/key-format.ts";
import { argsError } from "../runtime/native-errors.ts";
import type { NativeDef } from "../runtime/types.ts";
import { encodePactValue } from "../values/json.ts";
import { renderModuleName } from "../values/names.ts";
import { type Guard, isGuard, type PactList } from "../values/types.ts";

/** Flat cost of `validate-principal` (the reference's table). */
export const VALIDATE_PRINCIPAL_GAS = 250;

function hashText(text: string): string {
  return encodeBase64Url(blake2b256(text));
}

function argsText(args: PactList): string {
  let out = "";
  for (const a of args) out += encodePactValue(a);
  return out;
}

/** The principal a guard determines (Pact's `createPrincipalForGuard`). */
export function principalOf(g: Guard): string {
  switch (g.kind) {
    case "keyset":
      if (g.keys.length === 1 && g.pred === "keys-all" && isEd25519HexKey(g.keys[0]!)) {
        return `k:${g.keys[0]}`;
      }
      return `w:${hashText(g.keys.join(""))}:${g.pred}`;
    case "keyset-ref":
      return `r:${g.namespace === null ? g.name : `${g.namespace}.${g.name}`}`;
    case "module-guard":
      return `m:${renderModuleName(g.module)}:${g.name}`;
    case "user-guard":
      return `u:${g.fun}:${hashText(argsText(g.args))}`;
    case "capability-guard":
      return `c:${hashText(g.name + argsText(g.args) + (g.pactId ?? ""))}`;
    case "pact-guard":
      return `p:${g.pactId}:${g.name}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing (Pact's `principalParser`: the whole text must match)

/** The principal kinds, as `typeof-principal` names them. */
export type PrincipalType = "k:" | "w:" | "r:" | "u:" | "m:" | "p:" | "c:";

// Identifiers as Pact's token parser reads them: white space after a token is skipped.
const IDENT_TOKEN =
  /([\p{L}%#+\-_&$@<>=^?*!|/~][\p{L}0-9%#+\-_&$@<>=^?*!|/~]*)[\t\n\v\f\r \u00a0\p{Zs}]*/uy;
const DOT_TOKEN = /\.[\t\n\v\f\r \u00a0\p{Zs}]*/uy;
const HASH = /[A-Za-z0-9_-]{43}/y;
const HEX_KEY = /[0-9a-fA-F]{64}/y;
const RESERVED = new Set(["true", "false"]);

/** A parser step: the position after what it matched, or -1. */
type Step = (s: string, at: number) => number;

function sticky(re: RegExp): Step {
  return (s, at) => {
    re.lastIndex = at;
    const m = re.exec(s);
    return m === null ? -1 : at + m[0].length;
  };
}

const hash = sticky(HASH);
const hexKey = sticky(HEX_KEY);
const dot = sticky(DOT_TOKEN);

function ident(s: string, at: number): number {
  IDENT_TOKEN.lastIndex = at;
  const m = IDENT_TOKEN.exec(s);
  return m === null || RESERVED.has(m[1]!) ? -1 : at + m[0].length;
}

function colon(s: string, at: number): number {
  return at >= 0 && s[at] === ":" ? at + 1 : -1;
}

/** `a.b` or `a.b.c`, else `a` (Pact's `nameMatcher`). */
function name(s: string, at: number): number {
  if (at < 0) return -1;
  const first = ident(s, at);
  if (first < 0) return -1;
  const afterDot = dot(s, first);
  const second = afterDot < 0 ? -1 : ident(s, afterDot);
  if (second < 0) return first;
  const thirdDot = dot(s, second);
  const third = thirdDot < 0 ? -1 : ident(s, thirdDot);
  return third < 0 ? second : third;
}

/** `ns.m` or `m`. */
function moduleName(s: string, at: number): number {
  const first = ident(s, at);
  if (first < 0) return -1;
  const afterDot = dot(s, first);
  const second = afterDot < 0 ? -1 : ident(s, afterDot);
  return second < 0 ? first : second;
}

/** A keyset name: `ns.name` (the qualified form, committed once matched), or any non-empty text. */
function keysetName(s: string, at: number): number {
  const first = ident(s, at);
  const afterDot = first < 0 ? -1 : dot(s, first);
  const second = afterDot < 0 ? -1 : ident(s, afterDot);
  if (second >= 0) return second;
  return at < s.length ? s.length : -1;
}

function then(s: string, at: number, step: Step): number {
  return at < 0 ? -1 : step(s, at);
}

/** The kind of principal `text` is, or null when it is none. */
export function principalType(text: string): PrincipalType | null {
  if (text.length < 2 || text[1] !== ":") return null;
  const s = text;
  let end: number;
  switch (text[0]) {
    case "k":
      end = hexKey(s, 2);
      break;
    case "w":
      end = name(s, colon(s, hash(s, 2)));
      break;
    case "r":
      end = keysetName(s, 2);
      break;
    case "u":
      end = then(s, colon(s, name(s, 2)), hash);
      break;
    case "m":
      end = name(s, colon(s, moduleName(s, 2)));
      break;
    case "p":
      end = name(s, colon(s, hash(s, 2)));
      break;
    case "c":
      end = hash(s, 2);
      break;
    default:
      return null;
  }
  return end === s.length ? (`${text[0]}:` as PrincipalType) : null;
}

// ---------------------------------------------------------------------------------------------
// Natives

const createPrincipal: NativeDef = {
  name: "create-principal",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const g = args[0];
    if (!isGuard(g)) throw argsError("create-principal", args);
    return principalOf(g);
  },
};

const isPrincipal: NativeDef = {
  name: "is-principal",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const s = args[0];
    if (typeof s !== "string") throw argsError("is-principal", args);
    return principalType(s) !== null;
  },
};

const typeofPrincipal: NativeDef = {
  name: "typeof-principal",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const s = args[0];
    if (typeof s !== "string") throw argsError("typeof-principal", args);
    return principalType(s) ?? "";
  },
};

const validatePrincipal: NativeDef = {
  name: "validate-principal",
  minArgs: 2,
  maxArgs: 2,
  gas: VALIDATE_PRINCIPAL_GAS,
  impl(_ctx, args) {
    const [g, s] = args;
    if (!isGuard(g) || typeof s !== "string") throw argsError("validate-principal", args);
    return principalOf(g) === s;
  },
};

export const PRINCIPAL_NATIVES: readonly NativeDef[] = [
  createPrincipal,
  isPrincipal,
  typeofPrincipal,
  validatePrincipal,
];
