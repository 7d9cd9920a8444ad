/**
 * Strict reading of the JSON inside a command's `cmd`. Every problem found is reported (with the
 * field's path and the bad value), not just the first. Field order does not matter; fields Pact does
 * not know are ignored, as Pact ignores them (they are still covered by the hash).
 * Optional fields may be `null`, which Pact treats the same as absent.
 */
import {
  JsonNumber,
  type JsonObject,
  JsonSyntaxError,
  type JsonValue,
  parseJson,
} from "../pact/values/json-text.ts";
import { isJsonArray, isJsonObject, jsonTypeName } from "./json-shape.ts";
import { isDecimalInRange, MAX_DECIMAL_INTEGER_DIGITS, readSafeInteger } from "./number-text.ts";
import type {
  CommandPayload,
  CommandProblem,
  CommandProblemKind,
  ContMessage,
  ExecMessage,
  PrivateMeta,
  PublicMeta,
  SigCapability,
  SignatureScheme,
  Signer,
  Verifier,
} from "./types.ts";

/** Parses `cmd`; returns `undefined` (with problems pushed) when anything is wrong. */
export function parseCommandPayload(
  cmd: string,
  problems: CommandProblem[],
): CommandPayload | undefined {
  let root: JsonValue;
  try {
    root = parseJson(cmd);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    problems.push({ kind: "malformed-cmd", message: `cmd is not valid JSON: ${err.message}` });
    return undefined;
  }
  const reader = new Reader(problems);
  const before = problems.length;
  const payload = reader.readPayload(root);
  return problems.length === before ? payload : undefined;
}

/** Reads fields, recording a problem for each one that is missing or of the wrong type. */
class Reader {
  constructor(private readonly problems: CommandProblem[]) {}

  readPayload(root: JsonValue): CommandPayload | undefined {
    const obj = this.object(root, "cmd");
    if (obj === undefined) return undefined;
    const payload = this.message(this.required(obj, "payload", "cmd"), "cmd.payload");
    const meta = this.meta(this.required(obj, "meta", "cmd"), "cmd.meta");
    const signers = this.list(this.required(obj, "signers", "cmd"), "cmd.signers", (v, p) =>
      this.signer(v, p),
    );
    const verifiersJson = obj.get("verifiers");
    const verifiers =
      verifiersJson === undefined || verifiersJson === null
        ? null
        : this.list(verifiersJson, "cmd.verifiers", (v, p) => this.verifier(v, p));
    // Optional, as Pact 5 parses it: the node checks it where Chainweb does (mempool, preflight).
    const networkId = this.nullableString(obj.get("networkId") ?? null, "cmd.networkId");
    const nonce = this.string(this.required(obj, "nonce", "cmd"), "cmd.nonce");
    if (
      payload === undefined ||
      meta === undefined ||
      signers === undefined ||
      verifiers === undefined ||
      networkId === undefined ||
      nonce === undefined
    ) {
      return undefined;
    }
    return { payload, meta, signers, verifiers, networkId, nonce };
  }

  private message(
    value: JsonValue | undefined,
    path: string,
  ): ExecMessage | ContMessage | undefined {
    const obj = this.object(value, path);
    if (obj === undefined) return undefined;
    const exec = obj.get("exec");
    const cont = obj.get("cont");
    if (exec !== undefined && cont !== undefined) {
      return this.fail("wrong-type", `${path} has both "exec" and "cont"; it must have one`);
    }
    if (exec !== undefined) return this.exec(exec, `${path}.exec`);
    if (cont !== undefined) return this.cont(cont, `${path}.cont`);
    return this.fail("missing-field", `${path} must have an "exec" or a "cont" field`);
  }

  private exec(value: JsonValue, path: string): ExecMessage | undefined {
    const obj = this.object(value, path);
    if (obj === undefined) return undefined;
    const code = this.string(this.required(obj, "code", path), `${path}.code`);
    if (code === undefined) return undefined;
    return { kind: "exec", code, data: obj.get("data") ?? null };
  }

  private cont(value: JsonValue, path: string): ContMessage | undefined {
    const obj = this.object(value, path);
    if (obj === undefined) return undefined;
    const pactId = this.string(this.required(obj, "pactId", path), `${path}.pactId`);
    const step = this.integer(this.required(obj, "step", path), `${path}.step`);
    const rollback = this.boolean(this.required(obj, "rollback", path), `${path}.rollback`);
    const data = this.required(obj, "data", path);
    const proof = this.nullableString(obj.get("proof") ?? null, `${path}.proof`);
    if (
      pactId === undefined ||
      step === undefined ||
      rollback === undefined ||
      data === undefined ||
      proof === undefined
    ) {
      return undefined;
    }
    return { kind: "cont", pactId, step, rollback, data, proof };
  }

  private meta(value: JsonValue | undefined, path: string): PublicMeta | PrivateMeta | undefined {
    const obj = this.object(value, path);
    if (obj === undefined) return undefined;
    if (obj.has("address")) return this.privateMeta(obj, path);
    const creationTime = this.integer(
      this.required(obj, "creationTime", path),
      `${path}.creationTime`,
    );
    const ttl = this.integer(this.required(obj, "ttl", path), `${path}.ttl`);
    const gasLimit = this.integer(this.required(obj, "gasLimit", path), `${path}.gasLimit`);
    const chainId = this.string(this.required(obj, "chainId", path), `${path}.chainId`);
    const gasPrice = this.decimal(this.required(obj, "gasPrice", path), `${path}.gasPrice`);
    const sender = this.string(this.required(obj, "sender", path), `${path}.sender`);
    if (
      creationTime === undefined ||
      ttl === undefined ||
      gasLimit === undefined ||
      chainId === undefined ||
      gasPrice === undefined ||
      sender === undefined
    ) {
      return undefined;
    }
    return { kind: "public", creationTime, ttl, gasLimit, chainId, gasPrice, sender };
  }

  private privateMeta(obj: JsonObject, path: string): PrivateMeta | undefined {
    const gasLimitJson = obj.get("gasLimit") ?? null;
    const gasLimit = gasLimitJson === null ? null : this.integer(gasLimitJson, `${path}.gasLimit`);
    const address = this.privateAddress(obj.get("address") ?? null, `${path}.address`);
    if (gasLimit === undefined || address === undefined) return undefined;
    return gasLimit === null
      ? { kind: "private", address }
      : { kind: "private", address, gasLimit };
  }

  private privateAddress(value: JsonValue, path: string): PrivateMeta["address"] | undefined {
    if (value === null) return null;
    const addr = this.object(value, path);
    if (addr === undefined) return undefined;
    const from = this.string(this.required(addr, "from", path), `${path}.from`);
    const to = this.list(this.required(addr, "to", path), `${path}.to`, (v, p) =>
      this.string(v, p),
    );
    if (from === undefined || to === undefined) return undefined;
    return { from, to };
  }

  private signer(value: JsonValue, path: string): Signer | undefined {
    const obj = this.object(value, path);
    if (obj === undefined) return undefined;
    const pubKey = this.string(this.required(obj, "pubKey", path), `${path}.pubKey`);
    const scheme = this.scheme(obj.get("scheme") ?? null, `${path}.scheme`);
    const addr = this.nullableString(obj.get("addr") ?? null, `${path}.addr`);
    const clistJson = obj.get("clist") ?? null;
    const clist =
      clistJson === null
        ? []
        : this.list(clistJson, `${path}.clist`, (v, p) => this.capability(v, p));
    if (pubKey === undefined || scheme === undefined || addr === undefined || clist === undefined) {
      return undefined;
    }
    return { pubKey, scheme, addr, clist };
  }

  private scheme(value: JsonValue, path: string): SignatureScheme | null | undefined {
    if (value === null || value === "ED25519" || value === "WebAuthn") return value;
    return this.fail(
      "wrong-type",
      `${path} must be "ED25519" or "WebAuthn", got ${describe(value)}`,
    );
  }

  private capability(value: JsonValue, path: string): SigCapability | undefined {
    const obj = this.object(value, path);
    if (obj === undefined) return undefined;
    const name = this.string(this.required(obj, "name", path), `${path}.name`);
    const args = this.list(this.required(obj, "args", path), `${path}.args`, (v) => v);
    if (name === undefined || args === undefined) return undefined;
    return { name, args };
  }

  private verifier(value: JsonValue, path: string): Verifier | undefined {
    const obj = this.object(value, path);
    if (obj === undefined) return undefined;
    const name = this.string(this.required(obj, "name", path), `${path}.name`);
    const proof = this.required(obj, "proof", path);
    const clist = this.list(this.required(obj, "clist", path), `${path}.clist`, (v, p) =>
      this.capability(v, p),
    );
    if (name === undefined || proof === undefined || clist === undefined) return undefined;
    return { name, proof, clist };
  }

  // --- primitive fields ---

  private required(obj: JsonObject, key: string, path: string): JsonValue | undefined {
    const value = obj.get(key);
    if (value === undefined) this.fail("missing-field", `${path} is missing the field "${key}"`);
    return value;
  }

  private object(value: JsonValue | undefined, path: string): JsonObject | undefined {
    if (value === undefined) return undefined;
    if (isJsonObject(value)) return value;
    return this.expected(path, "an object", value);
  }

  private list<T>(
    value: JsonValue | undefined,
    path: string,
    item: (value: JsonValue, path: string) => T | undefined,
  ): T[] | undefined {
    if (value === undefined) return undefined;
    if (!isJsonArray(value)) return this.expected(path, "an array", value);
    const out: T[] = [];
    let ok = true;
    for (let i = 0; i < value.length; i++) {
      const parsed = item(value[i] as JsonValue, `${path}[${i}]`);
      if (parsed === undefined) ok = false;
      else out.push(parsed);
    }
    return ok ? out : undefined;
  }

  private string(value: JsonValue | undefined, path: string): string | undefined {
    if (value === undefined) return undefined;
    if (typeof value === "string") return value;
    return this.expected(path, "a string", value);
  }

  private nullableString(value: JsonValue | undefined, path: string): string | null | undefined {
    if (value === null) return null;
    if (value === undefined || typeof value === "string") return value;
    return this.expected(path, "a string or null", value);
  }

  private boolean(value: JsonValue | undefined, path: string): boolean | undefined {
    if (value === undefined) return undefined;
    if (typeof value === "boolean") return value;
    return this.expected(path, "true or false", value);
  }

  /**
   * An integer small enough for a JavaScript number. Pact also accepts an integer written as a
   * string (`"600"`) or as a Pact integer (`{"int": 600}`), so those are read too; a number with a
   * fractional part is refused rather than rounded.
   */
  private integer(value: JsonValue | undefined, path: string): number | undefined {
    if (value === undefined) return undefined;
    let text: string | undefined;
    if (value instanceof JsonNumber) text = value.text;
    else if (typeof value === "string" && /^-?[0-9]+$/.test(value)) text = value;
    else if (isJsonObject(value) && value.size === 1) {
      const inner = value.get("int");
      if (inner instanceof JsonNumber) text = inner.text;
      else if (typeof inner === "string" && /^-?[0-9]+$/.test(inner)) text = inner;
    }
    const read = text === undefined ? "not-integer" : readSafeInteger(text);
    if (typeof read === "number") return read;
    if (read === "out-of-range") {
      return this.fail(
        "wrong-type",
        `${path} is out of range (at most ${Number.MAX_SAFE_INTEGER} in size), got ${describe(value)}`,
      );
    }
    return this.expected(path, "an integer", value);
  }

  /** An exact decimal: a JSON number, or a string holding a decimal literal such as `"0.00001"`. */
  private decimal(value: JsonValue | undefined, path: string): JsonNumber | undefined {
    if (value === undefined) return undefined;
    let number: JsonNumber | undefined;
    if (value instanceof JsonNumber) number = value;
    else if (typeof value === "string" && /^-?[0-9]+(\.[0-9]+)?$/.test(value)) {
      number = new JsonNumber(value);
    }
    if (number === undefined) return this.expected(path, "a decimal number", value);
    if (!isDecimalInRange(number.text)) {
      return this.fail(
        "wrong-type",
        `${path} is out of range (at most ${MAX_DECIMAL_INTEGER_DIGITS} digits before the point), got ${describe(value)}`,
      );
    }
    return number;
  }

  private expected(path: string, what: string, value: JsonValue): undefined {
    return this.fail("wrong-type", `${path} must be ${what}, got ${describe(value)}`);
  }

  private fail(kind: CommandProblemKind, message: string): undefined {
    this.problems.push({ kind, message });
    return undefined;
  }
}

/** The bad value for a message: its type, and its text when short. */
function describe(value: JsonValue): string {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "string") return JSON.stringify(abbreviate(value));
  if (value instanceof JsonNumber) return abbreviate(value.text);
  return jsonTypeName(value);
}

function abbreviate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
