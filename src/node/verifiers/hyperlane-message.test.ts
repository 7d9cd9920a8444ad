import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { VerifierGas } from "../../execution/index.ts";
import { type CapToken, Decimal, type PactValue } from "../../pact/values/index.ts";
import { hyperlaneMessagePlugin } from "./hyperlane-message.ts";
import { verifierFailure } from "./test-support/verifier-failure.ts";

const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64url");
const utf8 = (s: string) => new TextEncoder().encode(s);
const be32 = (n: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n);
  return out;
};

const VALIDATOR_KEYS = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)];
/** Each validator's Ethereum address: the last 20 bytes of Keccak-256 of its public point. */
const VALIDATORS = VALIDATOR_KEYS.map(
  (sk) =>
    `0x${Buffer.from(keccak_256(secp256k1.getPublicKey(sk, false).subarray(1)).subarray(12)).toString("hex")}`,
);

const SENDER = new Uint8Array(32).fill(0xaa);
const RECIPIENT = new Uint8Array(32).fill(0xbb);
const BODY = utf8("mint 5 to alice");
const ORIGIN = 31337;
const MESSAGE = Buffer.concat([
  Buffer.from([3]),
  be32(9),
  be32(ORIGIN),
  SENDER,
  be32(626),
  RECIPIENT,
  BODY,
]);
const MESSAGE_ID = keccak_256(MESSAGE);
const TREE = new Uint8Array(32).fill(0x11);

/** What the validators sign: Ethereum's signed-hash form of the checkpoint's hash. */
function checkpointDigest(root: Uint8Array, index: number, messageId: Uint8Array): Uint8Array {
  const domain = keccak_256(Buffer.concat([be32(ORIGIN), TREE, utf8("HYPERLANE")]));
  const inner = keccak_256(Buffer.concat([domain, root, be32(index), messageId]));
  return keccak_256(Buffer.concat([utf8("\x19Ethereum Signed Message:\n32"), inner]));
}

/** An Ethereum signature: r, s, then v = 27 + the recovery bit. */
function ethSign(digest: Uint8Array, sk: Uint8Array): Uint8Array {
  const recovered = secp256k1.sign(digest, sk, {
    prehash: false,
    format: "recovered",
  });
  return Buffer.concat([recovered.subarray(1), Buffer.from([27 + recovered[0]!])]);
}

const CHECKPOINT_ROOT = new Uint8Array(32).fill(0x22);
const CHECKPOINT_INDEX = 41;

function messageIdMetadata(signers: readonly Uint8Array[]): Uint8Array {
  const digest = checkpointDigest(CHECKPOINT_ROOT, CHECKPOINT_INDEX, MESSAGE_ID);
  return Buffer.concat([
    TREE,
    CHECKPOINT_ROOT,
    be32(CHECKPOINT_INDEX),
    ...signers.map((sk) => ethSign(digest, sk)),
  ]);
}

function messageObject(version: PactValue = 3n): Map<string, PactValue> {
  return new Map<string, PactValue>([
    ["version", version],
    ["nonce", 9n],
    ["originDomain", BigInt(ORIGIN)],
    ["destinationDomain", 626n],
    ["sender", b64(SENDER)],
    ["recipient", b64(RECIPIENT)],
    ["messageBody", b64(BODY)],
  ]);
}

function capability(
  args: Partial<{
    id: PactValue;
    message: PactValue;
    validators: PactValue;
    threshold: PactValue;
  }> = {},
): CapToken {
  return {
    kind: "cap-token",
    name: "free.bridge.PROCESS",
    moduleHash: "",
    args: [
      args.id ?? b64(MESSAGE_ID),
      args.message ?? messageObject(),
      args.validators ?? VALIDATORS,
      args.threshold ?? 2n,
    ],
  };
}

describe("the hyperlane_v3_message verifier", () => {
  it("accepts a threshold of validator signatures over a message-id checkpoint", () => {
    const gas = new VerifierGas(100_000);
    const proof = [b64(MESSAGE), b64(messageIdMetadata(VALIDATOR_KEYS))];
    // The capability may write integer fields as integral decimals.
    hyperlaneMessagePlugin(
      proof,
      [capability({ message: messageObject(new Decimal(30n, 1)) })],
      gas,
    );
    assert.equal(gas.left, 100_000 - 5 - 5 - 2 * 16_250);
  });

  it("accepts a Merkle-root checkpoint, whose root it computes from the branch", () => {
    const leafIndex = 2;
    const branch = Array.from({ length: 32 }, (_, i) => new Uint8Array(32).fill(i));
    let root = MESSAGE_ID;
    for (let level = 0; level < 32; level++) {
      const right = (leafIndex >> level) % 2 === 1;
      root = keccak_256(Buffer.concat(right ? [branch[level]!, root] : [root, branch[level]!]));
    }
    const signedId = new Uint8Array(32).fill(0x33);
    const digest = checkpointDigest(root, CHECKPOINT_INDEX, signedId);
    const metadata = Buffer.concat([
      TREE,
      be32(leafIndex),
      signedId,
      ...branch,
      be32(CHECKPOINT_INDEX),
      ethSign(digest, VALIDATOR_KEYS[1]!),
    ]);
    const gas = new VerifierGas(100_000);
    hyperlaneMessagePlugin([b64(MESSAGE), b64(metadata)], [capability({ threshold: 1n })], gas);
    assert.equal(gas.left, 100_000 - 5 - 5 - 18 - 16_250);
  });

  it("refuses signatures out of the validators' order, too few, and a wrong message", () => {
    const gas = () => new VerifierGas(100_000);
    const proof = (signers: Uint8Array[]) => [b64(MESSAGE), b64(messageIdMetadata(signers))];
    const reversed = [VALIDATOR_KEYS[1]!, VALIDATOR_KEYS[0]!];
    assert.equal(
      verifierFailure(() => hyperlaneMessagePlugin(proof(reversed), [capability()], gas())),
      "Verification failed",
    );
    assert.equal(
      verifierFailure(() =>
        hyperlaneMessagePlugin(proof([VALIDATOR_KEYS[0]!]), [capability()], gas()),
      ),
      "The number of signatures can't be less than threshold",
    );
    assert.equal(
      verifierFailure(() =>
        hyperlaneMessagePlugin(proof(VALIDATOR_KEYS), [capability({ threshold: 0n })], gas()),
      ),
      "Threshold should be greater than 0",
    );
    assert.equal(
      verifierFailure(() =>
        hyperlaneMessagePlugin(proof(VALIDATOR_KEYS), [capability({ id: "abc" })], gas()),
      ),
      `Invalid message id. Expected: PLiteral (LString {_lString = "${b64(MESSAGE_ID)}"}) but got PLiteral (LString {_lString = "abc"})`,
    );
    assert.match(
      verifierFailure(() =>
        hyperlaneMessagePlugin(
          proof(VALIDATOR_KEYS),
          [capability({ message: messageObject(4n) })],
          gas(),
        ),
      ),
      /^Invalid message\. Expected: PObject \(ObjectMap \{_objectMap = fromList \[\(FieldKey "destinationDomain",PLiteral \(LInteger \{_lInteger = 626\}\)\),/,
    );
    assert.equal(
      verifierFailure(() =>
        hyperlaneMessagePlugin(proof(VALIDATOR_KEYS), [capability({ threshold: "2" })], gas()),
      ),
      "Threshold is not an integer",
    );
    assert.equal(
      verifierFailure(() => hyperlaneMessagePlugin([b64(MESSAGE)], [capability()], gas())),
      "Expected a proof data as a list",
    );
    assert.equal(
      verifierFailure(() => hyperlaneMessagePlugin([b64(MESSAGE), "AAAA"], [capability()], gas())),
      "error decoding metadata from bytes",
    );
  });
});
