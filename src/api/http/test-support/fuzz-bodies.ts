/**
 * Request bodies for fuzz tests of the HTTP endpoints (only tests import this): random JSON of
 * every shape, hostile shapes (deep nesting, long strings, big numbers, odd request keys), and
 * mutations of valid bodies the caller supplies (so the endpoints' deeper checks are reached too).
 * Seeded: the same `Random` gives the same bodies, so a failure can be replayed.
 */
import type { Random } from "../../../chain/test-support/random.ts";

export interface FuzzBody {
  /** The body text (not always JSON). */
  readonly text: string;
  /** The Content-Type header to send; undefined for none. */
  readonly contentType: string | undefined;
}

const JSON_TYPE = "application/json";
const ALPHABET = 'abcXYZ019_-=+/ "\\{}[]:,.\u0000\u001b\u00e9\u{1F600}';
const FIELD_NAMES = [
  "cmds",
  "cmd",
  "hash",
  "sigs",
  "sig",
  "requestKeys",
  "listen",
  "requestKey",
  "targetChainId",
  "code",
  "payload",
  "exec",
  "cont",
  "data",
  "meta",
  "signers",
  "nonce",
  "networkId",
  "pubKey",
  "__proto__",
  "constructor",
];

/** A random string of up to `max` characters from an alphabet of troublesome characters. */
export function randomText(random: Random, max: number): string {
  let out = "";
  const n = random.int(max + 1);
  for (let i = 0; i < n; i++) out += [...ALPHABET][random.int([...ALPHABET].length)];
  return out;
}

/** Strings shaped like request keys, most of them subtly wrong. */
export function oddRequestKey(random: Random): string {
  const key = base64url(random, 43);
  switch (random.int(8)) {
    case 0:
      return `${key}=`;
    case 1:
      return key.slice(0, random.int(43));
    case 2:
      return `${key}${base64url(random, random.between(1, 4))}`;
    case 3:
      return `${key.slice(0, 42)}B`;
    case 4:
      return key.replace(/[A-Z]/, "+");
    case 5:
      return `${key.slice(0, 42)}A`;
    case 6:
      return key.repeat(random.between(2, 2000));
    default:
      return key;
  }
}

function base64url(random: Random, n: number): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let out = "";
  for (let i = 0; i < n; i++) out += chars[random.int(64)];
  return out;
}

/** A random JSON value of at most `depth` levels. */
export function randomJson(random: Random, depth: number): unknown {
  const kind = random.int(depth > 0 ? 9 : 6);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random.int(2) === 0;
    case 2:
      return random.pick([0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, 123456789012]);
    case 3:
      return randomText(random, 20);
    case 4:
      return oddRequestKey(random);
    case 5:
      return random.pick(["(+ 1 2)", "(enumerate 1 10)", "(tx-hash)", "(read-msg)", "((("]);
    case 6:
    case 7: {
      const n = random.int(5);
      return Array.from({ length: n }, () => randomJson(random, depth - 1));
    }
    default: {
      const out: Record<string, unknown> = {};
      const n = random.int(5);
      for (let i = 0; i < n; i++) {
        out[random.pick(FIELD_NAMES)] = randomJson(random, depth - 1);
      }
      return out;
    }
  }
}

/** A JSON text nested `depth` deep (arrays or objects), optionally inside `field`. */
export function deeplyNested(random: Random, depth: number, field?: string): string {
  const array = random.int(2) === 0;
  const open = array ? "[" : '{"a":';
  const close = array ? "]" : "}";
  const inner = `${open.repeat(depth)}1${close.repeat(depth)}`;
  return field === undefined ? inner : `{${JSON.stringify(field)}:${inner}}`;
}

/** `text` with a few random edits: flipped, deleted, inserted or duplicated characters. */
export function mutateText(random: Random, text: string): string {
  let out = text;
  const edits = random.between(1, 4);
  for (let e = 0; e < edits; e++) {
    const at = random.int(out.length + 1);
    switch (random.int(5)) {
      case 0:
        out = out.slice(0, at) + out.slice(at + 1);
        break;
      case 1:
        out = out.slice(0, at) + randomText(random, 3) + out.slice(at);
        break;
      case 2:
        out = out.slice(0, at);
        break;
      case 3: {
        const c = out.charCodeAt(at);
        if (!Number.isNaN(c)) {
          out =
            out.slice(0, at) + String.fromCharCode(c ^ (1 << random.int(7))) + out.slice(at + 1);
        }
        break;
      }
      default:
        out = out.slice(0, at) + out.slice(random.int(out.length + 1));
    }
  }
  return out;
}

/** A valid body with one field's value replaced by a random one (recursively into objects). */
export function mutateJson(random: Random, value: unknown): unknown {
  if (Array.isArray(value)) {
    if (value.length === 0 || random.int(4) === 0) return randomJson(random, 3);
    const copy = [...value];
    const i = random.int(copy.length);
    copy[i] = mutateJson(random, copy[i]);
    if (random.int(4) === 0) copy.push(copy[i]);
    return copy;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0 || random.int(5) === 0) return randomJson(random, 3);
    const copy: Record<string, unknown> = { ...value };
    const [key, inner] = entries[random.int(entries.length)] as [string, unknown];
    if (random.int(6) === 0) delete copy[key];
    else copy[key] = mutateJson(random, inner);
    return copy;
  }
  if (typeof value === "string" && random.int(2) === 0) return mutateText(random, value);
  return randomJson(random, 2);
}

/**
 * One body: mostly JSON of the right content type, built from `valid` bodies of the endpoint
 * (mutated as text or as JSON) or from nothing; sometimes hostile shapes or a wrong content type.
 */
export function fuzzBody(random: Random, valid: readonly string[], fields: readonly string[]) {
  const json = (text: string): FuzzBody => ({ text, contentType: JSON_TYPE });
  const seed = valid.length > 0 ? random.pick(valid) : "{}";
  switch (random.int(12)) {
    case 0:
      return json(mutateText(random, seed));
    case 1:
    case 2:
    case 3:
      return json(JSON.stringify(mutateJson(random, JSON.parse(seed))));
    case 4:
      return json(JSON.stringify(randomJson(random, 4)));
    case 5:
      return json(deeplyNested(random, random.between(1000, 6000), random.pick(fields)));
    case 6:
      return json(
        JSON.stringify({ [random.pick(fields)]: "x".repeat(random.between(1, 200_000)) }),
      );
    case 7:
      return json(JSON.stringify({ [random.pick(fields)]: [oddRequestKey(random)] }));
    case 8:
      return json(JSON.stringify({ [random.pick(fields)]: oddRequestKey(random) }));
    case 9:
      return {
        text: seed,
        contentType: random.pick([undefined, "text/plain", "application/json; charset=latin1", ""]),
      };
    case 10:
      return json(random.pick(["", " ", "null", "[]", "0", '"x"', "{", "{}{}", "\u0000"]));
    default:
      return json(seed);
  }
}
