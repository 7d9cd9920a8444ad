import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha3_256 } from "@noble/hashes/sha3.js";
import { VerifierGas } from "../../execution/index.ts";
import { type CapToken, Decimal, type PactValue } from "../../pact/values/index.ts";
import { SIGNATURE_VERIFICATION_GAS, signedListPlugin } from "./signed-list.ts";
import { verifierFailure } from "./test-support/verifier-failure.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const SECRET = new Uint8Array(32).fill(7);
const PUBLIC_KEY = hex(secp256k1.getPublicKey(SECRET, true));
const CHUNK = new Uint8Array([0xde, 0xad]);

/** Parts: a string, a decimal, a byte chunk and a nested list holding a string. */
const PARTS: PactValue[] = [
  "transfer",
  new Decimal(150n, 2),
  new Map([["0x", hex(CHUNK)]]),
  ["alice"],
];
/** What the capability shows: the same parts without the byte chunk. */
const SHOWN: PactValue[] = ["transfer", new Decimal(15n, 1), ["alice"]];

/** The digest computed by hand: SHA3-256 of the parts' bytes, the nested list as its digest. */
function digest(): Uint8Array {
  const utf8 = (s: string) => new TextEncoder().encode(s);
  const nested = sha3_256(utf8("alice"));
  return sha3_256(Buffer.concat([utf8("transfer"), utf8("1.50"), CHUNK, nested]));
}

function signature(d: Uint8Array): string {
  return hex(secp256k1.sign(d, SECRET, { prehash: false }));
}

const capability = (parts: PactValue[], key: string): CapToken => ({
  kind: "cap-token",
  name: "free.oracle.SIGNED",
  moduleHash: "",
  args: [parts, key],
});

describe("the signed_list verifier", () => {
  it("accepts a signature over the parts' digest, for 650 gas", () => {
    const gas = new VerifierGas(1000);
    const proof = [PARTS, PUBLIC_KEY, signature(digest())];
    signedListPlugin(proof, [capability(SHOWN, PUBLIC_KEY)], gas);
    assert.equal(gas.left, 1000 - SIGNATURE_VERIFICATION_GAS);
  });

  it("refuses another signer's signature, mismatched arguments and malformed proofs", () => {
    const gas = () => new VerifierGas(1000);
    const cap = [capability(SHOWN, PUBLIC_KEY)];
    const other = hex(secp256k1.sign(digest(), new Uint8Array(32).fill(8), { prehash: false }));
    assert.equal(
      verifierFailure(() => signedListPlugin([PARTS, PUBLIC_KEY, other], cap, gas())),
      "Signature verification failed",
    );
    assert.equal(
      verifierFailure(() =>
        signedListPlugin(
          [PARTS, PUBLIC_KEY, signature(digest())],
          [capability(["x"], PUBLIC_KEY)],
          gas(),
        ),
      ),
      "Capability arguments do not match proof data",
    );
    assert.equal(
      verifierFailure(() => signedListPlugin([PARTS, PUBLIC_KEY, "abcd"], cap, gas())),
      "Malformed signature verification inputs",
    );
    assert.equal(
      verifierFailure(() => signedListPlugin([[1n], PUBLIC_KEY, "abcd"], cap, gas())),
      "Parsing hash list failed",
    );
    assert.equal(
      verifierFailure(() => signedListPlugin([PARTS, PUBLIC_KEY], cap, gas())),
      "Proof must be: [message parts, pubKey, sig]",
    );
    assert.equal(
      verifierFailure(() => signedListPlugin([PARTS, PUBLIC_KEY, "ab"], [...cap, ...cap], gas())),
      "Expected exactly one capability",
    );
    assert.equal(
      verifierFailure(() =>
        signedListPlugin([[new Map([["0x", "zz"]])], PUBLIC_KEY, "ab"], cap, gas()),
      ),
      "Malformed hex encoding: zz",
    );
  });
});
