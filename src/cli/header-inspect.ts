/**
 * `braid header inspect <base64url | file>`: decodes a block header and shows its object form
 * with the hash and PoW hash computed from its fields, and whether each verifies. The argument
 * is a base64url header (the default JSON form, quotes allowed), a JSON object header, or a
 * file holding either of those or the raw 318 bytes.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { decodeHeader, encodeHeader, HEADER_BYTES } from "../chain/header/binary.ts";
import { computeBlockHash, computePowHash, meetsTarget, powHashHex } from "../chain/header/hash.ts";
import {
  decodeHeaderBase64,
  decodeHeaderObject,
  encodeHeaderObject,
} from "../chain/header/json.ts";
import type { BlockHeader } from "../chain/header/types.ts";
import { DEVELOPMENT, KNOWN_VERSIONS } from "../chain/version/known-versions.ts";
import { word256Hex } from "../chain/word256.ts";
import { encodeBase64Url } from "../crypto/index.ts";
import { UserError } from "./errors.ts";

/** The largest file `header inspect` reads: a JSON object header is well under 1 KiB. */
export const MAX_HEADER_FILE_BYTES = 64 * 1024;

export interface HeaderInspection {
  readonly header: Record<string, unknown>;
  /** base64url of the 318 binary bytes. */
  readonly binary: string;
  readonly computedHash: string;
  readonly hashVerifies: boolean;
  /** Big-endian hex, as the header stream shows it. */
  readonly powHash: string;
  /** The target, as 64 hex digits. */
  readonly target: string;
  readonly powVerifies: boolean;
  /** Whether the header's network checks proof of work (false on development). */
  readonly powRequired: boolean | "unknown version";
}

/** Runs the command: returns the inspection as pretty-printed JSON text. */
export function runHeaderInspect(argument: string): string {
  return `${JSON.stringify(inspectHeader(readHeaderArgument(argument)), null, 2)}\n`;
}

/** Reads the header an argument names or holds. Throws a UserError naming what is wrong. */
export function readHeaderArgument(argument: string): BlockHeader {
  if (existsSync(argument) && statSync(argument).isFile()) {
    const size = statSync(argument).size;
    if (size > MAX_HEADER_FILE_BYTES) {
      throw new UserError(
        `${argument} is ${size} bytes; a header file is at most ${MAX_HEADER_FILE_BYTES}`,
      );
    }
    const bytes = new Uint8Array(readFileSync(argument));
    // base64url text of a header is 424 characters and a JSON header longer, so 318 bytes is binary
    if (bytes.length === HEADER_BYTES) return parse(() => decodeHeader(bytes), argument);
    return parseText(new TextDecoder().decode(bytes), argument);
  }
  // base64url has no "/" or ".", so such an argument was meant as a file name
  if (/[/.]/.test(argument) && !argument.trim().startsWith("{")) {
    throw new UserError(`no such file: ${argument}`);
  }
  return parseText(argument, "the argument");
}

function parseText(text: string, source: string): BlockHeader {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    return parse(() => decodeHeaderObject(JSON.parse(trimmed)), source);
  }
  const unquoted = /^"[^"]*"$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
  return parse(() => decodeHeaderBase64(unquoted), source);
}

function parse(decode: () => BlockHeader, source: string): BlockHeader {
  try {
    return decode();
  } catch (e) {
    throw new UserError(`cannot read a block header from ${source}: ${(e as Error).message}`);
  }
}

export function inspectHeader(header: BlockHeader): HeaderInspection {
  const version = KNOWN_VERSIONS.find((v) => v.code === header.versionCode);
  // An unknown version still gets shown, under a name that says so.
  const named = version ?? {
    ...DEVELOPMENT,
    name: `unknown (0x${header.versionCode.toString(16).padStart(8, "0")})`,
    code: header.versionCode,
  };
  const computed = computeBlockHash(header);
  const pow = computePowHash(header);
  return {
    header: { ...encodeHeaderObject(header, [named]) },
    binary: encodeBase64Url(encodeHeader(header)),
    computedHash: encodeBase64Url(computed),
    hashVerifies: Buffer.from(computed).equals(Buffer.from(header.hash)),
    powHash: powHashHex(pow),
    target: word256Hex(header.target),
    powVerifies: meetsTarget(pow, header.target),
    powRequired: version === undefined ? "unknown version" : !version.cheats.disablePow,
  };
}
