/**
 * Chainweb's `hyperlane_v3_message` verifier plugin (its rules since Chainweb 2.25): a Hyperlane
 * message is proven by the signatures of a threshold of validators over a checkpoint that
 * commits to the message, as Hyperlane's multisig ISM checks it on Ethereum.
 *
 * The proof is `[message, metadata]`, both unpadded base64url: the packed message (see
 * src/pact/natives/hyperlane.ts) and the ISM metadata, either Merkle-root metadata (the origin
 * Merkle tree address, the message's leaf index, the signed checkpoint's message id, a 32-level
 * Merkle branch, the checkpoint index, then 65-byte signatures) or message-id metadata (the tree
 * address, the checkpoint root and index, then signatures). The one capability must take
 * `(messageId, message-object, validators, threshold)`; validators are lowercase `0x` Ethereum
 * addresses in the order their signatures come.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { decodeBase64Url, encodeBase64Url, encodeHex } from "../../crypto/index.ts";
import { VerifierError, type VerifierGas, type VerifierPlugin } from "../../execution/index.ts";
import { unpackHyperlaneMessage } from "../../pact/index.ts";
import {
  Decimal,
  encodePactValue,
  type PactObject,
  type PactValue,
  pactValueEquals,
} from "../../pact/values/index.ts";

/** Gas of decoding each base64url part of the proof. */
export const BASE64_DECODE_GAS = 5;
/** Gas of computing a Merkle root from a branch. */
export const BRANCH_ROOT_GAS = 18;
/** Gas of recovering one signer's address. */
export const RECOVER_ADDRESS_GAS = 16_250;

/** Bytes of one validator signature: r, s and the recovery byte v. */
const SIGNATURE_BYTES = 65;
/** Levels of Hyperlane's Merkle tree. */
const TREE_DEPTH = 32;
/** Bytes of an Ethereum address: the last 20 bytes of the Keccak-256 of a public key. */
const ADDRESS_BYTES = 20;
const MESSAGE_ID_METADATA_HEADER = 32 + 32 + 4;
const MERKLE_ROOT_METADATA_HEADER = 32 + 4 + 32 + TREE_DEPTH * 32 + 4;
/** The prefix Ethereum signs a 32-byte hash with (`eth_sign`). */
const ETHEREUM_SIGNED_HASH_PREFIX = new TextEncoder().encode("\x19Ethereum Signed Message:\n32");
const HYPERLANE = new TextEncoder().encode("HYPERLANE");
/** The message fields that are integers; a capability may write them as integral decimals. */
const INTEGER_FIELDS = ["version", "nonce", "originDomain", "destinationDomain"] as const;

export const hyperlaneMessagePlugin: VerifierPlugin = (proof, caps, gas) => {
  if (caps.length !== 1) throw new VerifierError("Expected one capability.");
  const expected = capabilityArguments(caps[0]!.args);
  const [messageText, metadataText] = Array.isArray(proof) ? proof : [];
  if (
    !Array.isArray(proof) ||
    proof.length !== 2 ||
    typeof messageText !== "string" ||
    typeof metadataText !== "string"
  ) {
    throw new VerifierError("Expected a proof data as a list");
  }

  gas.charge(BASE64_DECODE_GAS);
  // Chainweb's decoders throw here, which it reports as an uncaught exception.
  const messageBytes = decodeBase64Url(messageText);
  const message = unpackHyperlaneMessage(messageBytes);
  if (message === null) throw new Error("the message is too short");

  const messageId = keccak_256(messageBytes);
  const messageIdValue = encodeBase64Url(messageId);
  if (!pactValueEquals(messageIdValue, expected.messageId)) {
    throw new VerifierError(
      `Invalid message id. Expected: ${haskellShow(messageIdValue)} but got ${haskellShow(expected.messageId)}`,
    );
  }
  const messageValue: PactObject = new Map<string, PactValue>([
    ["version", BigInt(message.version)],
    ["nonce", BigInt(message.nonce)],
    ["originDomain", BigInt(message.originDomain)],
    ["destinationDomain", BigInt(message.destinationDomain)],
    ["sender", encodeBase64Url(message.sender)],
    ["recipient", encodeBase64Url(message.recipient)],
    ["messageBody", encodeBase64Url(message.messageBody)],
  ]);
  if (!pactValueEquals(messageValue, expected.message)) {
    throw new VerifierError(
      `Invalid message. Expected: ${haskellShow(messageValue)} but got ${haskellShow(expected.message)}`,
    );
  }

  gas.charge(BASE64_DECODE_GAS);
  let metadata: Uint8Array;
  try {
    metadata = decodeBase64Url(metadataText);
  } catch {
    throw new VerifierError("error decoding metadata from base64");
  }
  const checkpoint =
    merkleRootCheckpoint(metadata, messageId, gas) ?? messageIdCheckpoint(metadata, messageId);

  const domainHash = keccak_256(
    concat([uint32(message.originDomain), checkpoint.originTreeAddress, HYPERLANE]),
  );
  const digest = keccak_256(
    concat([ETHEREUM_SIGNED_HASH_PREFIX, keccak_256(concat([domainHash, checkpoint.digestEnd]))]),
  );

  if (expected.threshold <= 0n) throw new VerifierError("Threshold should be greater than 0");
  if (BigInt(checkpoint.signatures.length) < expected.threshold) {
    throw new VerifierError("The number of signatures can't be less than threshold");
  }
  // Each signature must come from a validator after the previous signature's validator.
  let validators = expected.validators;
  for (const signature of checkpoint.signatures.slice(0, Number(expected.threshold))) {
    gas.charge(RECOVER_ADDRESS_GAS);
    const address = recoverAddress(digest, signature);
    if (address === null) {
      throw new VerifierError("Failed to recover an address: incorrect signature");
    }
    const index = validators.indexOf(`0x${encodeHex(address)}`);
    if (index === -1) throw new VerifierError("Verification failed");
    validators = validators.slice(index + 1);
  }
};

interface ExpectedMessage {
  readonly messageId: PactValue;
  readonly message: PactObject;
  readonly validators: readonly string[];
  readonly threshold: bigint;
}

function capabilityArguments(args: readonly PactValue[]): ExpectedMessage {
  const [messageId, message, validators, threshold] = args;
  if (args.length !== 4 || !Array.isArray(validators) || !isLiteral(threshold!)) {
    throw new VerifierError(
      "Incorrect number of capability arguments. Expected: messageId, message, signers, threshold.",
    );
  }
  const thresholdValue = integerOf("Threshold", threshold!);
  if (!validators.every((v): v is string => typeof v === "string")) {
    throw new VerifierError("Only string signers are supported");
  }
  if (!(message instanceof Map)) throw new VerifierError("Message should be an object");
  const normalized = new Map(message);
  for (const key of INTEGER_FIELDS) {
    const v = message.get(key);
    if (v === undefined || !isLiteral(v)) throw new VerifierError(`${key} is missing`);
    normalized.set(key, integerOf(key, v));
  }
  return {
    messageId: messageId!,
    message: normalized,
    validators,
    threshold: thresholdValue,
  };
}

function isLiteral(v: PactValue): boolean {
  return (
    typeof v === "string" || typeof v === "bigint" || typeof v === "boolean" || v instanceof Decimal
  );
}

/** An integer, or a decimal without a fraction, as an integer. */
function integerOf(what: string, v: PactValue): bigint {
  if (typeof v === "bigint") return v;
  if (v instanceof Decimal && v.isIntegral()) return v.toInteger("truncate");
  throw new VerifierError(`${what} is not an integer`);
}

interface Checkpoint {
  readonly originTreeAddress: Uint8Array;
  /** What follows the domain hash in the signed checkpoint: root, index, message id. */
  readonly digestEnd: Uint8Array;
  readonly signatures: readonly Uint8Array[];
}

/** Merkle-root metadata's checkpoint, or null when the metadata is too short for it. */
function merkleRootCheckpoint(
  metadata: Uint8Array,
  messageId: Uint8Array,
  gas: VerifierGas,
): Checkpoint | null {
  if (metadata.length < MERKLE_ROOT_METADATA_HEADER) return null;
  const view = new DataView(metadata.buffer, metadata.byteOffset, metadata.byteLength);
  const leafIndex = view.getUint32(32);
  const signedMessageId = metadata.subarray(36, 68);
  const branch = metadata.subarray(68, 68 + TREE_DEPTH * 32);
  const checkpointIndex = metadata.subarray(68 + TREE_DEPTH * 32, MERKLE_ROOT_METADATA_HEADER);
  // Out of gas here, Chainweb falls back to reading message-id metadata.
  if (gas.left < BRANCH_ROOT_GAS) return null;
  gas.charge(BRANCH_ROOT_GAS);
  return {
    originTreeAddress: metadata.subarray(0, 32),
    digestEnd: concat([branchRoot(messageId, branch, leafIndex), checkpointIndex, signedMessageId]),
    signatures: signaturesOf(metadata.subarray(MERKLE_ROOT_METADATA_HEADER)),
  };
}

function messageIdCheckpoint(metadata: Uint8Array, messageId: Uint8Array): Checkpoint {
  if (metadata.length < MESSAGE_ID_METADATA_HEADER) {
    throw new VerifierError("error decoding metadata from bytes");
  }
  return {
    originTreeAddress: metadata.subarray(0, 32),
    digestEnd: concat([metadata.subarray(32, MESSAGE_ID_METADATA_HEADER), messageId]),
    signatures: signaturesOf(metadata.subarray(MESSAGE_ID_METADATA_HEADER)),
  };
}

/** The whole 65-byte signatures of `bytes` (a shorter rest is ignored). */
function signaturesOf(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at + SIGNATURE_BYTES <= bytes.length; at += SIGNATURE_BYTES) {
    out.push(bytes.subarray(at, at + SIGNATURE_BYTES));
  }
  return out;
}

/** The root of Hyperlane's Merkle tree from a leaf, its 32-level branch and its index. */
function branchRoot(leaf: Uint8Array, branch: Uint8Array, index: number): Uint8Array {
  let node = leaf;
  for (let level = 0; level < TREE_DEPTH; level++) {
    const sibling = branch.subarray(level * 32, level * 32 + 32);
    const rightChild = Math.floor(index / 2 ** level) % 2 === 1;
    node = keccak_256(rightChild ? concat([sibling, node]) : concat([node, sibling]));
  }
  return node;
}

/**
 * The Ethereum address that signed `digest`, or null when no key recovers. The recovery byte is
 * Ethereum's: 27–30, or 37–40 (EIP-155); any other value is an exception, as in Chainweb.
 */
function recoverAddress(digest: Uint8Array, signature: Uint8Array): Uint8Array | null {
  const v = signature[64]!;
  const recovery = v >= 27 && v <= 30 ? v - 27 : v >= 37 && v <= 40 ? v - 37 : null;
  if (recovery === null) throw new Error(`Invalid V value for signature: ${v}`);
  let publicKey: Uint8Array;
  try {
    const recovered = concat([Uint8Array.of(recovery), signature.subarray(0, 64)]);
    publicKey = secp256k1.recoverPublicKey(recovered, digest, {
      prehash: false,
    });
  } catch {
    return null;
  }
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(32 - ADDRESS_BYTES);
}

function uint32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

/**
 * A value as Haskell's `show` writes Chainweb's (Pact 4) values, which its error messages carry:
 * literals, lists and objects; anything else as its JSON.
 */
function haskellShow(v: PactValue): string {
  if (typeof v === "string") return `PLiteral (LString {_lString = ${JSON.stringify(v)}})`;
  if (typeof v === "bigint") return `PLiteral (LInteger {_lInteger = ${v}})`;
  if (typeof v === "boolean") return `PLiteral (LBool {_lBool = ${v ? "True" : "False"}})`;
  if (v instanceof Decimal) return `PLiteral (LDecimal {_lDecimal = ${v.toString()}})`;
  if (Array.isArray(v)) return `PList [${v.map(haskellShow).join(",")}]`;
  if (v instanceof Map) {
    const fields = [...v.keys()]
      .sort()
      .map((k) => `(FieldKey ${JSON.stringify(k)},${haskellShow(v.get(k)!)})`);
    return `PObject (ObjectMap {_objectMap = fromList [${fields.join(",")}]})`;
  }
  return encodePactValue(v);
}
