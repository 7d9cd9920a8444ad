import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ParsedCommand, PrivateMeta, PublicMeta, Signer } from "../../command/index.ts";
import { Decimal, JsonNumber } from "../../pact/values/index.ts";
import {
  admissionProblem,
  batchRefusal,
  blockTimeProblem,
  privateAdmissionProblem,
} from "./admission.ts";

const NOW = 1_800_000_000;
/** What a refusal of a command's times says to do. */
const FIX =
  "Set meta.creationTime to the node's time: the time now (Math.floor(Date.now() / 1000)), or, once `braid dev time` has moved the node's clock, the time it printed";
const ENTITY_KEY = "aa".repeat(32);
const rules = {
  networkId: "development",
  chainId: 3,
  blockGasLimit: 150_000,
  minGasPrice: Decimal.parseLiteral("0.00000001"),
  entityKeys: [ENTITY_KEY],
};

function command(
  meta: Partial<Omit<PublicMeta, "gasPrice">> & { gasPrice?: string } = {},
  networkId = "development",
  sigs = 1,
): ParsedCommand {
  const full: PublicMeta = {
    kind: "public",
    creationTime: NOW - 5,
    ttl: 600,
    gasLimit: 1000,
    chainId: "3",
    sender: "sender00",
    ...meta,
    gasPrice: new JsonNumber(meta.gasPrice ?? "0.00000001"),
  };
  return {
    cmd: "{}",
    hash: "h",
    hashBytes: new Uint8Array(32),
    hashAlgorithm: "blake2s",
    sigs: Array.from({ length: sigs }, () => "00"),
    payload: {
      payload: { kind: "exec", code: "1", data: null },
      meta: full,
      signers: [],
      verifiers: null,
      networkId,
      nonce: "n",
    },
  };
}

const problem = (c: ParsedCommand, onChain = false) =>
  admissionProblem(c, rules, { now: NOW, isOnChain: () => onChain });

describe("mempool admission", () => {
  it("admits a well-formed command", () => {
    assert.equal(problem(command()), null);
  });

  it("refuses each broken rule with Chainweb's message, in Chainweb's order", () => {
    assert.equal(
      problem(command({ gasLimit: 150_001 })),
      "Transaction gas limit exceeds block gas limit (150001)",
    );
    assert.equal(
      problem(command({ gasPrice: "0.0000000000001" })),
      "insert error: This transaction's gas price: 0.0000000000001 is not correctly rounded. It should be rounded to at most 12 decimal places.",
    );
    assert.equal(
      problem(command({ gasPrice: "0.000000001" })),
      "Transaction gas price (0.000000001) is below minimum gas price (0.00000001)",
    );
    assert.equal(
      problem(command({ creationTime: NOW + 11 })),
      `Transaction creation time too far in the future: the command's creationTime is 1800000011 (2027-01-15T08:00:11Z) and its ttl 600 s, the node's time is 1800000000 (2027-01-15T08:00:00Z). ${FIX}`,
    );
    assert.equal(
      problem(command({ creationTime: NOW - 700 })),
      `Transaction time-to-live is expired: the command's creationTime is 1799999300 (2027-01-15T07:48:20Z) and its ttl 600 s, the node's time is 1800000000 (2027-01-15T08:00:00Z). ${FIX}`,
    );
    // A creation time no date can show is given in seconds only.
    assert.match(
      problem(command({ creationTime: -1e20 })) ?? "",
      /^Transaction time-to-live is expired: the command's creationTime is -100000000000000000000 and its ttl 600 s, the node's time is 1800000000 \(2027-01-15T08:00:00Z\)\. /,
    );
    assert.equal(problem(command(), true), "Transaction already exists on chain");
    assert.equal(problem(command({ chainId: "x" })), "insert error: Unparsable ChainId");
    assert.equal(
      problem(command({ chainId: "4" })),
      "Transaction metadata (chain id, chainweb version) conflicts with this endpoint",
    );
    assert.equal(problem(command({}, "development", 101)), "insert error: Too many signatures");
    assert.equal(
      problem(command({}, "mainnet01")),
      "Transaction metadata (chain id, chainweb version) conflicts with this endpoint",
    );
    // The first broken rule wins: gas limit before chain id.
    assert.equal(
      problem(command({ gasLimit: 200_000, chainId: "4" })),
      "Transaction gas limit exceeds block gas limit (200000)",
    );
  });

  it("tells whether a command fits a block by its parent's time (95 s of slop)", () => {
    const parentMicros = NOW * 1_000_000;
    assert.equal(blockTimeProblem(command({ creationTime: NOW + 95 }), parentMicros), null);
    assert.equal(blockTimeProblem(command({ creationTime: NOW + 96 }), parentMicros), "future");
    assert.equal(blockTimeProblem(command({ creationTime: NOW - 600 }), parentMicros), "expired");
    // As chainweb-node's assertTxTimeRelativeToParent: a time to live out of range, or a
    // negative creation time, is expired whenever it was created; the future is checked first.
    assert.equal(blockTimeProblem(command({ ttl: 0 }), parentMicros), "expired");
    assert.equal(blockTimeProblem(command({ ttl: 172_801 }), parentMicros), "expired");
    assert.equal(blockTimeProblem(command({ ttl: 172_800 }), parentMicros), null);
    assert.equal(
      blockTimeProblem(command({ creationTime: -1, ttl: NOW + 600 }), parentMicros),
      "expired",
    );
    assert.equal(
      blockTimeProblem(command({ creationTime: NOW + 96, ttl: 0 }), parentMicros),
      "future",
    );
  });

  it("words a refused send batch as Chainweb does", () => {
    assert.equal(
      batchRefusal([
        {
          index: 1,
          hash: "abc",
          reason: "Transaction time-to-live is expired",
        },
      ]),
      'One or more transactions were invalid: Transaction "abc" at index 1 failed with: Transaction time-to-live is expired',
    );
  });
});

describe("private admission", () => {
  const signer = (pubKey: string): Signer => ({
    pubKey,
    scheme: null,
    addr: null,
    clist: [],
  });
  function privateCommand(signers: Signer[], gasLimit?: number, cmd = "{}"): ParsedCommand {
    const meta: PrivateMeta = {
      kind: "private",
      address: { from: "A", to: ["B"] },
      ...(gasLimit === undefined ? {} : { gasLimit }),
    };
    const base = command();
    return { ...base, cmd, payload: { ...base.payload, meta, signers } };
  }
  const privateProblem = (c: ParsedCommand, entityKeys = rules.entityKeys) =>
    privateAdmissionProblem(c, { ...rules, entityKeys }, { now: NOW, isOnChain: () => false });
  const NOT_SIGNED = "Private commands must be signed by a key of this node's entity (entityKeys)";

  it("admits a command one of whose signers holds an entity key, in any case", () => {
    const other = signer("bb".repeat(32));
    assert.equal(privateProblem(privateCommand([other, signer(ENTITY_KEY.toUpperCase())])), null);
  });

  it("refuses a command no entity key signed, or any when the node has no entity", () => {
    assert.equal(privateProblem(privateCommand([])), NOT_SIGNED);
    assert.equal(privateProblem(privateCommand([signer("bb".repeat(32))])), NOT_SIGNED);
    const webAuthn = { ...signer(ENTITY_KEY), scheme: "WebAuthn" as const };
    assert.equal(privateProblem(privateCommand([webAuthn])), NOT_SIGNED);
    assert.equal(
      privateProblem(privateCommand([signer(ENTITY_KEY)]), []),
      "Private commands are turned off on this node (entityKeys is none)",
    );
  });

  it("refuses a gas limit below 1, above the block's, or smaller than the command's size", () => {
    const entity = [signer(ENTITY_KEY)];
    assert.equal(
      privateProblem(privateCommand(entity, 0)),
      "Transaction gas limit must be a positive integer, got 0",
    );
    assert.equal(
      privateProblem(privateCommand(entity, 150_001)),
      "Transaction gas limit exceeds block gas limit (150001)",
    );
    assert.equal(privateProblem(privateCommand(entity, 150_000)), null);
    // 10,000 bytes cost ceil(100 + (100/512)^7) = 101 gas.
    assert.equal(
      privateProblem(privateCommand(entity, 100, "x".repeat(10_000))),
      "Transaction too big for its gas limit: its size costs 101 gas, its gas limit is 100",
    );
    assert.equal(privateProblem(privateCommand(entity, 101, "x".repeat(10_000))), null);
  });
});
