import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { testRuntime } from "../test-support/test-runtime.ts";
import { Decimal } from "../values/decimal.ts";
import { makeKeySet } from "../values/keyset.ts";
import { packHyperlaneMessage, unpackHyperlaneMessage } from "./hyperlane.ts";

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString("base64url");

/** 32 bytes whose last `tail.length` bytes are `tail` (an Ethereum address left-padded). */
function bytes32(tail: number[]): Uint8Array {
  const out = new Uint8Array(32);
  out.set(tail, 32 - tail.length);
  return out;
}

const SENDER = bytes32([0xaa, 0xbb, 0xcc]);
const RECIPIENT = bytes32([0x01, 0x02]);
const BODY = new TextEncoder().encode("hello bridge");

/** The message object as Pact code writes it. */
function messageObject(fields: Partial<Record<string, string>> = {}): string {
  const all: Record<string, string> = {
    version: "3",
    nonce: "7",
    originDomain: "31337",
    sender: `"${b64(SENDER)}"`,
    destinationDomain: "626",
    recipient: `"${b64(RECIPIENT)}"`,
    messageBody: `"${b64(BODY)}"`,
    ...fields,
  };
  return `{${Object.entries(all)
    .map(([k, v]) => `"${k}": ${v}`)
    .join(", ")}}`;
}

describe("hyperlane-message-id", () => {
  it("is the Keccak-256 of the packed message", () => {
    // The packed form built field by field, independently of the native's code.
    const header = Buffer.alloc(9);
    header.writeUInt8(3, 0);
    header.writeUInt32BE(7, 1);
    header.writeUInt32BE(31337, 5);
    const destination = Buffer.alloc(4);
    destination.writeUInt32BE(626, 0);
    const packed = Buffer.concat([header, SENDER, destination, RECIPIENT, BODY]);
    const expected = b64(keccak_256(packed));
    assert.equal(testRuntime().run(`(hyperlane-message-id ${messageObject()})`), expected);
    assert.equal(expected, "hVOewg1J4C-FBf3az7n0ftJ9ATgkyUxIIfjGTlQyG3c");
  });

  it("packs and unpacks the same message", () => {
    const message = {
      version: 3,
      nonce: 7,
      originDomain: 31337,
      sender: SENDER,
      destinationDomain: 626,
      recipient: RECIPIENT,
      messageBody: BODY,
    };
    const packed = packHyperlaneMessage(message);
    assert.equal(packed.length, 77 + BODY.length);
    assert.deepEqual(unpackHyperlaneMessage(packed), message);
    assert.equal(unpackHyperlaneMessage(packed.subarray(0, 76)), null);
  });

  it("words its errors on chain as Pact does there", () => {
    const t = testRuntime();
    const onChain = (fields: Partial<Record<string, string>>) =>
      t.fail(`(hyperlane-message-id ${messageObject(fields)})`).onChainMessage;
    assert.equal(
      onChain({ version: "256" }),
      "Hyperlane native error: Object key version was out of bounds.",
    );
    assert.equal(
      onChain({ sender: `"${b64(new Uint8Array(20))}"` }),
      "Hyperlane native error: Incorrect binary data size. sender. Expected: 32, but got: 20",
    );
    assert.equal(
      onChain({ messageBody: '"a+b"' }),
      "Hyperlane native error: Invalid base64 encoding on field: messageBody",
    );
    assert.equal(
      t.fail('(hyperlane-decode-token-message "a+b")').onChainMessage,
      "Hyperlane decode error: Failed to base64-decode token message.",
    );
  });

  it("reports missing, mistyped, out-of-range and mis-sized fields in Pact's words", () => {
    const t = testRuntime();
    const fail = (fields: Partial<Record<string, string>>) =>
      t.fail(`(hyperlane-message-id ${messageObject(fields)})`).message;
    assert.equal(
      fail({ nonce: "7.0" }),
      "Hyperlane native error: Failed to find key in object: nonce",
    );
    assert.equal(
      fail({ version: "256" }),
      "Hyperlane native error: Object key version was out of bounds",
    );
    assert.equal(
      fail({ originDomain: "-1" }),
      "Hyperlane native error: Object key originDomain was out of bounds",
    );
    assert.equal(
      fail({ sender: `"${b64(new Uint8Array(20))}"` }),
      "Hyperlane native error: Incorrect binary data size sender. Expected: 32, but got 20",
    );
    assert.equal(
      fail({ messageBody: '"a+b"' }),
      "Hyperlane native error: Invalid base64 encoding on field messageBody",
    );
    assert.equal(
      t.fail(`(hyperlane-message-id "x")`).message,
      "Type error: failed to call native function hyperlane-message-id with argument(s) of type(s): string",
    );
  });
});

const KEYSET_JSON = '{"pred":"keys-all","keys":["aa11"]}';

describe("hyperlane-encode-token-message", () => {
  it("packs the amount as a uint256, the chain id as a uint16 and the recipient's bytes", () => {
    const encoded = testRuntime().run(
      `(hyperlane-encode-token-message {"amount": 599.0, "chainId": "4", "recipient": "${b64(KEYSET_JSON)}"})`,
    );
    const expected = Buffer.concat([
      bytes32([0x02, 0x57]),
      Buffer.from([0, 4]),
      Buffer.from(KEYSET_JSON),
    ]);
    assert.equal(encoded, b64(expected));
  });

  it("rounds the amount half to even and reads the chain id's leading digits modulo 2^16", () => {
    const t = testRuntime();
    const encode = (amount: string, chainId: string) =>
      Buffer.from(
        t.run(
          `(hyperlane-encode-token-message {"amount": ${amount}, "chainId": "${chainId}", "recipient": ""})`,
        ) as string,
        "base64url",
      ).toString("hex");
    assert.equal(encode("2.5", "70000"), `${"00".repeat(31)}02${"1170"}`);
    assert.equal(encode("3.5", "12 and more"), `${"00".repeat(31)}04000c`);
    // A negative amount wraps around, as Haskell's conversion to a Word256 does.
    assert.equal(encode("-1.0", "0"), `${"ff".repeat(32)}0000`);
  });

  it("requires a decimal amount and a chain id starting with a digit", () => {
    const t = testRuntime();
    assert.equal(
      t.fail(`(hyperlane-encode-token-message {"amount": 1, "chainId": "0", "recipient": ""})`)
        .message,
      "Hyperlane native error: Failed to find key in object: amount",
    );
    assert.equal(
      t.fail(`(hyperlane-encode-token-message {"amount": 1.0, "chainId": "x1", "recipient": ""})`)
        .message,
      "Hyperlane native error: Failed to decode chainId: input does not start with a digit",
    );
  });
});

describe("hyperlane-decode-token-message", () => {
  it("reads the amount in units of 10^-18, the chain id and the recipient guard", () => {
    const message = b64(
      Buffer.concat([bytes32([0x02, 0x57]), Buffer.from([0, 4]), Buffer.from(KEYSET_JSON)]),
    );
    assert.deepEqual(
      testRuntime().run(`(hyperlane-decode-token-message "${message}")`),
      new Map<string, unknown>([
        ["amount", new Decimal(599n, 18)],
        ["chainId", "4"],
        ["recipient", makeKeySet(["aa11"], "keys-all")],
      ]),
    );
  });

  it("fails on bad base64, too few bytes and a recipient that is not a guard", () => {
    const t = testRuntime();
    const fail = (text: string) => t.fail(`(hyperlane-decode-token-message "${text}")`).message;
    assert.equal(fail("a+b"), "Hyperlane decode error: Failed to base64-decode token message");
    assert.equal(
      fail(b64(new Uint8Array(33))),
      "Hyperlane decode error: Decoding error: binary decoding failed",
    );
    const principal = b64(Buffer.concat([new Uint8Array(34), Buffer.from('"k:aa11"')]));
    assert.equal(fail(principal), "Hyperlane decode error: Could not parse recipient into a guard");
  });
});
