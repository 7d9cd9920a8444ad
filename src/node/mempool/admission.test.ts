import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ParsedCommand, PublicMeta } from "../../command/index.ts";
import { Decimal, JsonNumber } from "../../pact/values/index.ts";
import { admissionProblem, batchRefusal, blockTimeProblem } from "./admission.ts";

const NOW = 1_800_000_000;
const rules = {
  networkId: "development",
  chainId: 3,
  blockGasLimit: 150_000,
  minGasPrice: Decimal.parseLiteral("0.00000001"),
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
      "Transaction creation time too far in the future",
    );
    assert.equal(
      problem(command({ creationTime: NOW - 700 })),
      "Transaction time-to-live is expired",
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
  });

  it("words a refused send batch as Chainweb does", () => {
    assert.equal(
      batchRefusal([{ index: 1, hash: "abc", reason: "Transaction time-to-live is expired" }]),
      'One or more transactions were invalid: Transaction "abc" at index 1 failed with: Transaction time-to-live is expired',
    );
  });
});
