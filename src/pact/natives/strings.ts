/**
 * String natives: `concat str-to-list str-to-int int-to-str is-charset base64-encode
 * base64-decode hash-keccak256 typeof` (`format`, `show` and `hash` are in display.ts).
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { Base64UrlError, decodeBase64Url, encodeBase64Url } from "../../crypto/base64url.ts";
import { blake2b256 } from "../../crypto/hash.ts";
import { BASIC_WORK_GAS } from "../gas/costs.ts";
import { PactError } from "../runtime/errors.ts";
import { argsError, decodeError, nativeFailure } from "../runtime/native-errors.ts";
import type { NativeDef } from "../runtime/types.ts";
import { codePointLength } from "../values/text.ts";
import { typeName } from "./type-names.ts";

/** The longest text `str-to-int` converts (the reference's `checkLen`). */
export const MAX_STR_TO_INT_LENGTH = 512;

/** Flat costs in milligas (the reference's table gas model). */
export const BASE64_GAS = 250;
export const STR_TO_LIST_GAS = 250;
export const IS_CHARSET_GAS = 500;
export const KECCAK_GAS = 1000;

const utf8 = new TextEncoder();
/** UTF-8 that refuses invalid bytes instead of replacing them. */
export const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Base64url as the reference decodes it (base64-bytestring's URL `decode`): padding is optional
 * (missing `=` are added to reach a multiple of 4), encodings with non-zero unused bits are
 * rejected. Returns null for invalid input.
 */
export function decodeBase64UrlLenient(text: string): Uint8Array | null {
  const missing = (4 - (text.length % 4)) % 4;
  try {
    return decodeBase64Url(missing === 0 ? text : text + "=".repeat(missing));
  } catch (e) {
    if (e instanceof Base64UrlError) return null;
    throw e;
  }
}

/** Blake2b-256 of the bytes, as unpadded base64url (the reference's `hashToText . pactHash`). */
export function pactHashText(bytes: Uint8Array | string): string {
  return encodeBase64Url(blake2b256(bytes));
}

const concat: NativeDef = {
  name: "concat",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const list = args[0]!;
    if (!Array.isArray(list)) throw argsError("concat", args);
    let out = "";
    for (const s of list) {
      if (typeof s !== "string") throw argsError("concat", [s]);
      out += s;
    }
    return out;
  },
};

const strToList: NativeDef = {
  name: "str-to-list",
  minArgs: 1,
  maxArgs: 1,
  gas: STR_TO_LIST_GAS,
  impl(_ctx, args) {
    const s = args[0]!;
    if (typeof s !== "string") throw argsError("str-to-list", args);
    return Array.from(s);
  },
};

/** The value of an ASCII hex digit (either case), or -1. */
function hexDigitValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/** The reference's `baseStrToInt` for bases 2–16, with its error texts. */
function parseInBase(base: number, text: string): bigint {
  if (text.length === 0) throw decodeError("empty text: ");
  for (let i = 0; i < text.length; i++) {
    if (hexDigitValue(text.charCodeAt(i)) < 0) {
      throw decodeError("invalid digit: supported digits are 0-9, A-F");
    }
  }
  const b = BigInt(base);
  let acc = 0n;
  for (let i = 0; i < text.length; i++) {
    const v = hexDigitValue(text.charCodeAt(i));
    if (v >= base) {
      throw decodeError(`character '${text[i]}' is out of range for base ${base}: ${text}`);
    }
    acc = acc * b + BigInt(v);
  }
  return acc;
}

function checkLength(text: string): void {
  if (text.length > MAX_STR_TO_INT_LENGTH && codePointLength(text) > MAX_STR_TO_INT_LENGTH) {
    throw decodeError(`Invalid input, only up to ${MAX_STR_TO_INT_LENGTH} length supported`);
  }
}

function bytesToInteger(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

/** Minimal big-endian bytes of a non-negative integer (0 is one zero byte). */
function integerToBytes(n: bigint): Uint8Array {
  let hex = n.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

const strToInt: NativeDef = {
  name: "str-to-int",
  minArgs: 1,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    if (args.length === 1) {
      const s = args[0]!;
      if (typeof s !== "string") throw argsError("str-to-int", args);
      checkLength(s);
      return parseInBase(10, s);
    }
    const base = args[0]!;
    const s = args[1]!;
    if (typeof base !== "bigint" || typeof s !== "string") throw argsError("str-to-int-base", args);
    if (base === 64n) {
      checkLength(s);
      const bytes = decodeBase64UrlLenient(s);
      if (bytes === null) throw decodeError("invalid b64 encoding");
      return bytesToInteger(bytes);
    }
    if (base >= 2n && base <= 16n) {
      checkLength(s);
      return parseInBase(Number(base), s);
    }
    throw nativeFailure("str-to-int-base", "Base value must be >= 2 and <= 16, or 64");
  },
};

const intToStr: NativeDef = {
  name: "int-to-str",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const base = args[0]!;
    const v = args[1]!;
    if (typeof base !== "bigint" || typeof v !== "bigint") throw argsError("int-to-str", args);
    if (v < 0n) throw nativeFailure("int-to-str", "int-to-str error: cannot show negative integer");
    if (base >= 2n && base <= 16n) return v.toString(Number(base));
    if (base === 64n) return encodeBase64Url(integerToBytes(v));
    throw nativeFailure("int-to-str", "invalid base for base64URL conversion");
  },
};

const isCharset: NativeDef = {
  name: "is-charset",
  minArgs: 2,
  maxArgs: 2,
  gas: IS_CHARSET_GAS,
  impl(_ctx, args) {
    const charset = args[0]!;
    const s = args[1]!;
    if (typeof charset !== "bigint" || typeof s !== "string") throw argsError("is-charset", args);
    let limit: number;
    if (charset === 0n) limit = 0x80;
    else if (charset === 1n) limit = 0x100;
    else throw nativeFailure("is-charset", "Unsupported character set");
    for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= limit) return false;
    return true;
  },
};

const base64Encode: NativeDef = {
  name: "base64-encode",
  minArgs: 1,
  maxArgs: 1,
  gas: BASE64_GAS,
  impl(_ctx, args) {
    const s = args[0]!;
    if (typeof s !== "string") throw argsError("base64-encode", args);
    return encodeBase64Url(utf8.encode(s));
  },
};

const base64Decode: NativeDef = {
  name: "base64-decode",
  minArgs: 1,
  maxArgs: 1,
  gas: BASE64_GAS,
  impl(_ctx, args) {
    const s = args[0]!;
    if (typeof s !== "string") throw argsError("base64-decode", args);
    const bytes = decodeBase64UrlLenient(s);
    if (bytes !== null) {
      try {
        return strictUtf8.decode(bytes);
      } catch {
        // invalid UTF-8 is reported like invalid base64
      }
    }
    throw decodeError("invalid b64 encoding");
  },
};

const hashKeccak256: NativeDef = {
  name: "hash-keccak256",
  minArgs: 1,
  maxArgs: 1,
  gas: KECCAK_GAS,
  impl(_ctx, args) {
    const list = args[0]!;
    if (!Array.isArray(list)) throw argsError("hash-keccak256", args);
    for (const s of list) if (typeof s !== "string") throw argsError("hash-keccak256", [s]);
    const h = keccak_256.create();
    for (const s of list as readonly string[]) {
      const bytes = decodeBase64UrlLenient(s);
      if (bytes === null) {
        // The reference appends base64-bytestring's own reason (with a byte offset) here.
        throw new PactError("execution", "Base64URL decode failed: invalid base64url encoding");
      }
      h.update(bytes);
    }
    return encodeBase64Url(h.digest());
  },
};

const typeOf: NativeDef = {
  name: "typeof",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    return typeName(args[0]!);
  },
};

export const CONCAT = concat;
export const STR_TO_LIST = strToList;
export const STR_TO_INT = strToInt;
export const INT_TO_STR = intToStr;
export const IS_CHARSET = isCharset;
export const BASE64_ENCODE = base64Encode;
export const BASE64_DECODE = base64Decode;
export const HASH_KECCAK256 = hashKeccak256;
export const TYPE_OF = typeOf;
