/**
 * YAML request files (`braid -a`, `braid -u`): what a person writes to describe one command, read
 * into the command's payload plus the keys that sign it.
 *
 * Where the interface spec and Pact's implementation differ, the spec is followed:
 * - every `publicMeta` field left out is zero or empty (Pact fills a missing `creationTime` with the
 *   current time and a missing `ttl` with 1800 when `publicMeta` is present);
 * - `contractTxHash` is accepted as the spec's name for `pactTxHash`, and may be an integer;
 * - an unknown key is an error naming it and listing the valid keys (Pact ignores it);
 * - the default nonce is the current time in Pact's format (`2024-05-01 12:00:00.123 UTC`) for
 *   both request types (Pact's unsigned `cont` requests wrap it in an extra pair of quotes).
 */
import { dirname, isAbsolute, join } from "node:path";
import { Base64UrlError, decodeBase64Url } from "../crypto/index.ts";
import { decodePactValue } from "../pact/values/json.ts";
import {
  JsonNumber,
  JsonSyntaxError,
  type JsonValue,
  parseJson,
} from "../pact/values/json-text.ts";
import { publicKeyHex, type SigningKey, signingKey } from "./key-file.ts";
import { isDecimalInRange, MAX_DECIMAL_INTEGER_DIGITS, readSafeInteger } from "./number-text.ts";
import type {
  CommandPayload,
  ContMessage,
  ExecMessage,
  PublicMeta,
  SigCapability,
  SignatureScheme,
  Signer,
  Verifier,
} from "./types.ts";
import { parseYaml, YamlFields } from "./yaml-input.ts";

export const COMMON_REQUEST_KEYS = [
  "type",
  "data",
  "dataFile",
  "keyPairs",
  "signers",
  "verifiers",
  "nonce",
  "networkId",
  "publicMeta",
] as const;
export const EXEC_REQUEST_KEYS = [...COMMON_REQUEST_KEYS, "code", "codeFile"] as const;
export const CONT_REQUEST_KEYS = [
  ...COMMON_REQUEST_KEYS,
  "pactTxHash",
  "contractTxHash",
  "step",
  "rollback",
  "proof",
] as const;
export const PUBLIC_META_KEYS = [
  "chainId",
  "sender",
  "gasLimit",
  "gasPrice",
  "ttl",
  "creationTime",
] as const;
export const KEY_PAIR_KEYS = ["public", "secret", "caps", "address", "scheme"] as const;
export const SIGNER_KEYS = ["public", "caps", "address", "scheme"] as const;
export const CAPABILITY_KEYS = ["name", "args"] as const;
export const VERIFIER_KEYS = ["name", "proof", "clist"] as const;

/** What the request file's environment provides; kept out of the parser so it stays testable. */
export interface RequestEnvironment {
  /** Reads `codeFile`/`dataFile`; the path is already resolved against the request's folder. */
  readonly readFile: (path: string) => string;
  /** The clock, for the default nonce. */
  readonly now: () => Date;
}

export interface ApiRequest {
  readonly payload: CommandPayload;
  /** The keys that sign, in the order of `payload.signers` (empty for an unsigned request). */
  readonly keys: readonly SigningKey[];
  /** The `keyPairs` entries (e.g. `keyPairs[0]`) whose `secret` an unsigned request left unused. */
  readonly unusedSecrets: readonly string[];
}

/**
 * Reads a request. `unsigned` selects `-u` (signers listed under `signers`, or the public keys of
 * `keyPairs`, whose secrets are not used) instead of `-a` (signers given as `keyPairs`).
 * `source` is the file's path: it names the file in errors and is where `codeFile` and
 * `dataFile` are found.
 */
export function parseApiRequest(
  text: string,
  source: string,
  unsigned: boolean,
  env: RequestEnvironment,
): ApiRequest {
  const top = YamlFields.of(parseYaml(text, source), source, "", "request fields");
  const type = top.optionalString("type") ?? "exec";
  if (type !== "exec" && type !== "cont") {
    top.fail(`type must be "exec" or "cont", got ${JSON.stringify(type)}`);
  }
  top.onlyKeys(
    type === "exec" ? EXEC_REQUEST_KEYS : CONT_REQUEST_KEYS,
    `${type === "exec" ? "an exec" : "a cont"} request`,
  );
  const reader = new RequestReader(top, source, env);
  const { signers, keys, unusedSecrets } = reader.signers(unsigned);
  const payload: CommandPayload = {
    payload: type === "exec" ? reader.exec() : reader.cont(),
    meta: reader.publicMeta(),
    signers,
    verifiers: reader.verifiers(),
    networkId: top.optionalString("networkId") ?? null,
    nonce: top.optionalString("nonce") ?? defaultNonce(env.now()),
  };
  return { payload, keys, unusedSecrets };
}

/** Pact's default nonce: the time as Haskell shows a UTCTime, e.g. `2024-05-01 12:00:00.5 UTC`. */
export function defaultNonce(now: Date): string {
  const iso = now.toISOString(); // 2024-05-01T12:00:00.500Z
  const fraction = iso.slice(20, 23).replace(/0+$/, "");
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction === "" ? "" : `.${fraction}`} UTC`;
}

class RequestReader {
  constructor(
    private readonly top: YamlFields,
    private readonly source: string,
    private readonly env: RequestEnvironment,
  ) {}

  exec(): ExecMessage {
    const { top } = this;
    const code = top.optionalString("code");
    const codeFile = top.optionalString("codeFile");
    if ((code === undefined) === (codeFile === undefined)) {
      top.fail('an exec request needs exactly one of "code" and "codeFile"');
    }
    return {
      kind: "exec",
      code: code ?? this.readSibling(codeFile as string),
      data: this.pactValue(this.data(), "data"),
    };
  }

  cont(): ContMessage {
    const { top } = this;
    if (top.has("pactTxHash") && top.has("contractTxHash")) {
      top.fail('give "pactTxHash" or "contractTxHash", not both');
    }
    const key = top.has("contractTxHash") ? "contractTxHash" : "pactTxHash";
    const idValue = top.get(key);
    let pactId: string;
    if (
      key === "contractTxHash" &&
      idValue instanceof JsonNumber &&
      /^[0-9]+$/.test(idValue.text)
    ) {
      pactId = idValue.text;
    } else {
      pactId =
        top.optionalString(key) ??
        top.fail('a cont request needs "pactTxHash" (or "contractTxHash")');
      checkBase64Url(pactId, key, top);
    }
    return {
      kind: "cont",
      pactId,
      step: this.safeInteger(top, "step") ?? top.missing("step"),
      rollback: top.optionalBoolean("rollback") ?? top.missing("rollback"),
      data: this.pactValue(this.data(), "data"),
      proof: top.optionalString("proof") ?? null,
    };
  }

  /** `data` (YAML) or `dataFile` (a JSON file), or neither (`null`). */
  private data(): JsonValue {
    const { top } = this;
    if (top.has("data") && top.has("dataFile")) top.fail('give "data" or "dataFile", not both');
    const dataFile = top.optionalString("dataFile");
    if (dataFile === undefined) return top.get("data") ?? null;
    const text = this.readSibling(dataFile);
    try {
      return parseJson(text);
    } catch (err) {
      if (err instanceof JsonSyntaxError)
        top.fail(`dataFile ${dataFile} is not valid JSON: ${err.message}`);
      throw err;
    }
  }

  publicMeta(): PublicMeta {
    const metaJson = this.top.get("publicMeta");
    const meta =
      metaJson === undefined
        ? new YamlFields(new Map(), this.source, "publicMeta")
        : YamlFields.of(metaJson, this.source, "publicMeta", "metadata fields");
    meta.onlyKeys(PUBLIC_META_KEYS, "publicMeta");
    const chainIdJson = meta.get("chainId");
    const chainId =
      chainIdJson instanceof JsonNumber && /^[0-9]+$/.test(chainIdJson.text)
        ? chainIdJson.text
        : (meta.optionalString("chainId") ?? "");
    return {
      kind: "public",
      creationTime: this.safeInteger(meta, "creationTime") ?? 0,
      ttl: this.safeInteger(meta, "ttl") ?? 0,
      gasLimit: this.safeInteger(meta, "gasLimit") ?? 0,
      chainId,
      gasPrice: this.gasPrice(meta),
      sender: meta.optionalString("sender") ?? "",
    };
  }

  private gasPrice(meta: YamlFields): JsonNumber {
    const value = meta.get("gasPrice");
    if (value === undefined) return new JsonNumber("0");
    const number =
      value instanceof JsonNumber
        ? value
        : typeof value === "string" && /^-?[0-9]+(\.[0-9]+)?$/.test(value)
          ? new JsonNumber(value)
          : meta.wrongType("gasPrice", "a decimal number", value);
    if (!isDecimalInRange(number.text)) {
      meta.fail(
        `publicMeta.gasPrice ${number.text} is out of range (at most ${MAX_DECIMAL_INTEGER_DIGITS} digits before the point)`,
      );
    }
    return number;
  }

  private safeInteger(fields: YamlFields, key: string): number | undefined {
    const value = fields.optionalInteger(key);
    if (value === undefined) return undefined;
    const read = readSafeInteger(value.text);
    if (typeof read !== "number") {
      fields.fail(
        `${fields.name(key)} ${value.text} is out of range (at most ${Number.MAX_SAFE_INTEGER} in size)`,
      );
    }
    return read;
  }

  /**
   * The payload's signers: from `keyPairs` (signed request), or from `signers` or the public keys
   * of `keyPairs` (unsigned request: the same signers `-a` would write, so the command and its
   * hash are the same once signed).
   */
  signers(unsigned: boolean): { signers: Signer[]; keys: SigningKey[]; unusedSecrets: string[] } {
    const { top } = this;
    if (!unsigned) {
      if (top.has("signers"))
        top.fail('"signers" is for unsigned requests (-u); give "keyPairs" to sign');
      const pairs = (top.optionalList("keyPairs") ?? []).map((item, i) =>
        this.signingKeyPair(item, `keyPairs[${i}]`),
      );
      return {
        signers: pairs.map((p) => p.signer),
        keys: pairs.map((p) => p.key),
        unusedSecrets: [],
      };
    }
    if (top.has("keyPairs") && top.has("signers")) {
      top.fail('give "signers" or "keyPairs" in an unsigned request (-u), not both');
    }
    const signers = top.optionalList("signers");
    if (signers !== undefined) {
      return {
        signers: signers.map((item, i) => this.signer(item, `signers[${i}]`)),
        keys: [],
        unusedSecrets: [],
      };
    }
    const pairs =
      top.optionalList("keyPairs") ??
      top.fail('an unsigned request (-u) needs "signers" or "keyPairs"');
    const unusedSecrets: string[] = [];
    return {
      signers: pairs.map((item, i) => {
        const path = `keyPairs[${i}]`;
        const fields = this.keyPairFields(item, path);
        if (fields.has("secret")) unusedSecrets.push(path);
        const publicHex = publicKeyHex(
          fields.optionalText("public") ?? fields.missing("public"),
          this.source,
          path,
        );
        return this.keyPairSigner(fields, path, publicHex);
      }),
      keys: [],
      unusedSecrets,
    };
  }

  private signingKeyPair(item: JsonValue, path: string): { signer: Signer; key: SigningKey } {
    const fields = this.keyPairFields(item, path);
    const key = signingKey(
      fields.optionalText("public"),
      fields.optionalText("secret") ?? fields.missing("secret"),
      this.source,
      path,
    );
    return { signer: this.keyPairSigner(fields, path, key.publicHex), key };
  }

  private keyPairFields(item: JsonValue, path: string): YamlFields {
    const fields = YamlFields.of(item, this.source, path, "public, secret and caps");
    fields.onlyKeys(KEY_PAIR_KEYS, "a key pair");
    const scheme = fields.optionalString("scheme");
    if (scheme !== undefined && scheme !== "ED25519") {
      fields.fail(
        `${path}.scheme ${JSON.stringify(scheme)} is not supported for signing; use ED25519`,
      );
    }
    return fields;
  }

  /** The signer of a key pair whose (lowercase hex) public key is `publicHex`. */
  private keyPairSigner(fields: YamlFields, path: string, publicHex: string): Signer {
    const address = fields.optionalText("address");
    if (address !== undefined && address.toLowerCase() !== publicHex) {
      fields.fail(`${path}.address ${address} does not match the public key ${publicHex}`);
    }
    // Pact writes signing key pairs with neither scheme nor address.
    return { pubKey: publicHex, scheme: null, addr: null, clist: this.caps(fields, "caps") };
  }

  private signer(item: JsonValue, path: string): Signer {
    const fields = YamlFields.of(item, this.source, path, "public and caps");
    fields.onlyKeys(SIGNER_KEYS, "a signer");
    const scheme = fields.optionalString("scheme");
    if (scheme !== undefined && scheme !== "ED25519" && scheme !== "WebAuthn") {
      fields.fail(`${path}.scheme must be "ED25519" or "WebAuthn", got ${JSON.stringify(scheme)}`);
    }
    return {
      pubKey: fields.optionalText("public") ?? fields.missing("public"),
      scheme: (scheme as SignatureScheme | undefined) ?? null,
      addr: fields.optionalText("address") ?? null,
      clist: this.caps(fields, "caps"),
    };
  }

  private caps(fields: YamlFields, key: string): SigCapability[] {
    const list = fields.optionalList(key) ?? [];
    return list.map((item, i) => {
      const path = `${fields.name(key)}[${i}]`;
      const cap = YamlFields.of(item, this.source, path, "name and args");
      cap.onlyKeys(CAPABILITY_KEYS, "a capability");
      const name = cap.string("name");
      if (!QUALIFIED_NAME.test(name)) {
        cap.fail(
          `${path}.name must be a qualified capability name such as coin.TRANSFER, got ${JSON.stringify(name)}`,
        );
      }
      const args = cap.optionalList("args") ?? cap.missing("args");
      return { name, args: args.map((arg, j) => this.pactValue(arg, `${path}.args[${j}]`)) };
    });
  }

  verifiers(): Verifier[] | null {
    const list = this.top.optionalList("verifiers") ?? [];
    if (list.length === 0) return null; // Pact leaves an empty list out of the cmd
    return list.map((item, i) => {
      const fields = YamlFields.of(item, this.source, `verifiers[${i}]`, "name, proof and clist");
      fields.onlyKeys(VERIFIER_KEYS, "a verifier");
      return {
        name: fields.string("name"),
        proof: this.pactValue(
          fields.get("proof") ?? fields.missing("proof"),
          `verifiers[${i}].proof`,
        ),
        clist: this.caps(fields, "clist"),
      };
    });
  }

  /** Checks that JSON reads as a Pact value (as Pact decodes `data` and capability arguments). */
  private pactValue(value: JsonValue, path: string): JsonValue {
    try {
      decodePactValue(value);
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      this.top.fail(`${path} is not a valid Pact value: ${err.message}`);
    }
    return value;
  }

  private readSibling(file: string): string {
    return this.env.readFile(isAbsolute(file) ? file : join(dirname(this.source), file));
  }
}

/** `module.NAME` or `namespace.module.NAME`. */
const QUALIFIED_NAME = /^[^.\s]+\.[^.\s]+(\.[^.\s]+)?$/;

function checkBase64Url(text: string, key: string, fields: YamlFields): void {
  try {
    decodeBase64Url(text);
  } catch (err) {
    if (err instanceof Base64UrlError)
      fields.fail(`${key} must be a base64url transaction hash: ${err.message}`);
    throw err;
  }
}
