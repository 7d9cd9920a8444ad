/**
 * Hyperlane natives: `hyperlane-message-id`, `hyperlane-decode-token-message` and
 * `hyperlane-encode-token-message`, and the binary forms they share with Chainweb's
 * `hyperlane_v3_message` verifier (src/node/verifiers).
 *
 * Both binary forms are Solidity's `abi.encodePacked`: fields concatenated big-endian with no
 * offsets or lengths. A message is version (1 byte), nonce (4), origin domain (4), sender (32),
 * destination domain (4), recipient (32), then the body; its id is the Keccak-256 of those bytes.
 * A token message is the amount (32 bytes), the chain id (2), then the recipient guard as JSON.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { encodeBase64Url } from "../../crypto/base64url.ts";
import { type PactError, pactErrorWithOnChainText } from "../runtime/errors.ts";
import { argsError } from "../runtime/native-errors.ts";
import type { NativeDef } from "../runtime/types.ts";
import { Decimal } from "../values/decimal.ts";
import { parsePactValue } from "../values/json.ts";
import { isGuard, type PactObject, type PactValue } from "../values/types.ts";
import { decodeBase64UrlLenient, strictUtf8 } from "./strings.ts";

/** Flat cost of each Hyperlane native in milligas (Pact's table). */
export const HYPERLANE_GAS = 2000;

/** Bytes of a message's sender and recipient (Solidity `bytes32`). */
export const HYPERLANE_ADDRESS_BYTES = 32;
/** Bytes of a message before its body. */
const MESSAGE_HEADER_BYTES = 1 + 4 + 4 + HYPERLANE_ADDRESS_BYTES + 4 + HYPERLANE_ADDRESS_BYTES;
/** Bytes of a token message before its recipient: a uint256 amount and a uint16 chain id. */
const TOKEN_HEADER_BYTES = 32 + 2;
/** A token message's amount is in units of 10^-18 (wei) when decoded. */
const WEI_PER_TOKEN = 10n ** 18n;

export interface HyperlaneMessage {
  readonly version: number;
  readonly nonce: number;
  readonly originDomain: number;
  readonly sender: Uint8Array;
  readonly destinationDomain: number;
  readonly recipient: Uint8Array;
  readonly messageBody: Uint8Array;
}

export function packHyperlaneMessage(m: HyperlaneMessage): Uint8Array {
  const out = new Uint8Array(MESSAGE_HEADER_BYTES + m.messageBody.length);
  const view = new DataView(out.buffer);
  view.setUint8(0, m.version);
  view.setUint32(1, m.nonce);
  view.setUint32(5, m.originDomain);
  out.set(m.sender, 9);
  view.setUint32(41, m.destinationDomain);
  out.set(m.recipient, 45);
  out.set(m.messageBody, MESSAGE_HEADER_BYTES);
  return out;
}

/** The message in `bytes`, or null when they are too short to hold one. */
export function unpackHyperlaneMessage(bytes: Uint8Array): HyperlaneMessage | null {
  if (bytes.length < MESSAGE_HEADER_BYTES) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    version: view.getUint8(0),
    nonce: view.getUint32(1),
    originDomain: view.getUint32(5),
    sender: bytes.slice(9, 41),
    destinationDomain: view.getUint32(41),
    recipient: bytes.slice(45, MESSAGE_HEADER_BYTES),
    messageBody: bytes.slice(MESSAGE_HEADER_BYTES),
  };
}

/** A message's id: the Keccak-256 of its packed bytes. */
export function hyperlaneMessageId(packed: Uint8Array): Uint8Array {
  return keccak_256(packed);
}

// ---------------------------------------------------------------------------------------------
// Errors, in Pact's words: the REPL's text, then the on-chain text where Pact words it otherwise

function nativeError(message: string, onChain = message): PactError {
  return pactErrorWithOnChainText(
    "execution",
    `Hyperlane native error: ${message}`,
    `Hyperlane native error: ${onChain}`,
  );
}

function decodeFailure(message: string, onChain = message): PactError {
  return pactErrorWithOnChainText(
    "execution",
    `Hyperlane decode error: ${message}`,
    `Hyperlane decode error: ${onChain}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Reading the fields of a Pact object

function field(o: PactObject, key: string): PactValue {
  const v = o.get(key);
  if (v === undefined) throw nativeError(`Failed to find key in object: ${key}`);
  return v;
}

function stringField(o: PactObject, key: string): string {
  const v = field(o, key);
  if (typeof v !== "string") throw nativeError(`Failed to find key in object: ${key}`);
  return v;
}

/** An integer field that must fit an unsigned integer of `bits` bits. */
function uintField(o: PactObject, key: string, bits: number): number {
  const v = field(o, key);
  if (typeof v !== "bigint") throw nativeError(`Failed to find key in object: ${key}`);
  if (v < 0n || v >= 1n << BigInt(bits)) {
    throw nativeError(
      `Object key ${key} was out of bounds`,
      `Object key ${key} was out of bounds.`,
    );
  }
  return Number(v);
}

function bytesField(o: PactObject, key: string, size: number | null): Uint8Array {
  const bytes = decodeBase64UrlLenient(stringField(o, key));
  if (bytes === null) {
    throw nativeError(
      `Invalid base64 encoding on field ${key}`,
      `Invalid base64 encoding on field: ${key}`,
    );
  }
  if (size !== null && bytes.length !== size) {
    throw nativeError(
      `Incorrect binary data size ${key}. Expected: ${size}, but got ${bytes.length}`,
      `Incorrect binary data size. ${key}. Expected: ${size}, but got: ${bytes.length}`,
    );
  }
  return bytes;
}

function messageFromObject(o: PactObject): HyperlaneMessage {
  return {
    version: uintField(o, "version", 8),
    nonce: uintField(o, "nonce", 32),
    originDomain: uintField(o, "originDomain", 32),
    sender: bytesField(o, "sender", HYPERLANE_ADDRESS_BYTES),
    destinationDomain: uintField(o, "destinationDomain", 32),
    recipient: bytesField(o, "recipient", HYPERLANE_ADDRESS_BYTES),
    messageBody: bytesField(o, "messageBody", null),
  };
}

/**
 * A token message's chain id as Pact reads it (Haskell's `Data.Text.Read.decimal` at `Word16`):
 * the leading digits, wrapped modulo 2^16, whatever follows them ignored.
 */
function parseChainId(text: string): number {
  const digits = /^[0-9]+/.exec(text)?.[0];
  if (digits === undefined) {
    throw nativeError(
      "Failed to decode chainId: input does not start with a digit",
      "Failed to decode chainId.",
    );
  }
  return Number(BigInt(digits) % 65536n);
}

// ---------------------------------------------------------------------------------------------
// The natives

function objectArg(name: string, args: readonly unknown[]): PactObject {
  const o = args[0];
  if (!(o instanceof Map)) throw argsError(name, args as readonly PactValue[]);
  return o as PactObject;
}

/** `(hyperlane-message-id message)`: the id of a message object, unpadded base64url. */
const HYPERLANE_MESSAGE_ID: NativeDef = {
  name: "hyperlane-message-id",
  minArgs: 1,
  maxArgs: 1,
  gas: HYPERLANE_GAS,
  impl(_ctx, args) {
    const message = messageFromObject(objectArg("hyperlane-message-id", args));
    return encodeBase64Url(hyperlaneMessageId(packHyperlaneMessage(message)));
  },
};

/**
 * `(hyperlane-decode-token-message text)`: the amount (a uint256 of wei, as a decimal of
 * tokens), chain id and recipient guard of a base64url token message.
 */
const HYPERLANE_DECODE_TOKEN_MESSAGE: NativeDef = {
  name: "hyperlane-decode-token-message",
  minArgs: 1,
  maxArgs: 1,
  gas: HYPERLANE_GAS,
  impl(_ctx, args) {
    const text = args[0];
    if (typeof text !== "string") throw argsError("hyperlane-decode-token-message", args);
    const bytes = decodeBase64UrlLenient(text);
    if (bytes === null) {
      throw decodeFailure(
        "Failed to base64-decode token message",
        "Failed to base64-decode token message.",
      );
    }
    if (bytes.length < TOKEN_HEADER_BYTES) {
      throw decodeFailure(
        "Decoding error: binary decoding failed",
        "Decoding error: binary decoding failed.",
      );
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let amount = 0n;
    for (let i = 0; i < 32; i += 8) amount = (amount << 64n) | view.getBigUint64(i);
    const chainId = view.getUint16(32);
    const recipient = recipientGuard(bytes.subarray(TOKEN_HEADER_BYTES));
    return new Map<string, PactValue>([
      ["amount", Decimal.fromRational(amount, WEI_PER_TOKEN)],
      ["chainId", String(chainId)],
      ["recipient", recipient],
    ]);
  },
};

/** The recipient of a token message: a guard in Pact's JSON form. */
function recipientGuard(bytes: Uint8Array): PactValue {
  let guard: PactValue | undefined;
  try {
    guard = parsePactValue(strictUtf8.decode(bytes));
  } catch {
    guard = undefined;
  }
  if (guard === undefined || !isGuard(guard)) {
    throw decodeFailure("Could not parse recipient into a guard");
  }
  return guard;
}

/**
 * `(hyperlane-encode-token-message {"recipient", "amount", "chainId"})`: the packed token message,
 * unpadded base64url. The amount is rounded to an integer as it is (the contract has already
 * scaled it), the recipient is base64url of the bytes to send.
 */
const HYPERLANE_ENCODE_TOKEN_MESSAGE: NativeDef = {
  name: "hyperlane-encode-token-message",
  minArgs: 1,
  maxArgs: 1,
  gas: HYPERLANE_GAS,
  impl(_ctx, args) {
    const o = objectArg("hyperlane-encode-token-message", args);
    const recipient = bytesField(o, "recipient", null);
    const amountValue = field(o, "amount");
    if (!(amountValue instanceof Decimal))
      throw nativeError("Failed to find key in object: amount");
    // Haskell's `round` into a Word256: banker's rounding, wrapped modulo 2^256.
    const amount = BigInt.asUintN(256, amountValue.toInteger("round"));
    const chainId = parseChainId(stringField(o, "chainId"));
    const out = new Uint8Array(TOKEN_HEADER_BYTES + recipient.length);
    const view = new DataView(out.buffer);
    for (let i = 0; i < 4; i++) {
      view.setBigUint64(i * 8, BigInt.asUintN(64, amount >> BigInt(192 - i * 64)));
    }
    view.setUint16(32, chainId);
    out.set(recipient, TOKEN_HEADER_BYTES);
    return encodeBase64Url(out);
  },
};

export const HYPERLANE_NATIVES: readonly NativeDef[] = [
  HYPERLANE_MESSAGE_ID,
  HYPERLANE_DECODE_TOKEN_MESSAGE,
  HYPERLANE_ENCODE_TOKEN_MESSAGE,
];
