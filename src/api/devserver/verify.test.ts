import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { signCommand } from "../../command/index.ts";
import { encodeHex, keyPairFromSeed } from "../../crypto/index.ts";
import { openMemoryPactDb } from "../../pact/db/index.ts";
import { verifyRequest } from "./verify.ts";

const alice = keyPairFromSeed(new Uint8Array(32).fill(1));
const ALICE = encodeHex(alice.publicKey);

function commandText(code: string, sign = true): string {
  const cmd = JSON.stringify({
    payload: { exec: { code, data: null } },
    meta: { creationTime: 0, ttl: 0, gasLimit: 0, chainId: "", gasPrice: 0, sender: "" },
    signers: [{ pubKey: ALICE }],
    networkId: null,
    nonce: "n",
  });
  return JSON.stringify(signCommand(cmd, sign ? [alice] : [], "blake2s"));
}

const outcomes = (report: ReturnType<typeof verifyRequest>) =>
  report.checks.map((c) => `${c.check}:${c.outcome}`);

describe("verifyRequest", () => {
  it("passes a well-formed command whose modules compile, naming what it compiled", () => {
    const db = openMemoryPactDb();
    const code = `(namespace "free")
(interface counting (defun count:integer ()))
(module counter G (implements counting) (defcap G () true) (defun count:integer () 1))`;
    const text = commandText(code);
    const report = verifyRequest(text, db, "blake2s");
    assert.equal(report.valid, true);
    assert.equal(report.kind, "command");
    assert.equal(report.requestKey, JSON.parse(text).hash);
    assert.deepEqual(report.checks.slice(2), [
      { check: "hash", outcome: "passed", detail: "the hash is the Blake2s-256 hash of cmd" },
      { check: "signatures", outcome: "passed", detail: "1 valid signature, one per signer" },
      { check: "parse", outcome: "passed", detail: "3 top-level forms" },
      {
        check: "compile",
        outcome: "passed",
        detail: "compiled interface free.counting, module free.counter",
      },
    ]);
    assert.deepEqual(db.moduleNames(), [], "nothing was installed");
  });

  it("fails a missing signature and skips the code checks", () => {
    const report = verifyRequest(commandText("(+ 1 2)", false), openMemoryPactDb(), "blake2s");
    assert.equal(report.valid, false);
    assert.deepEqual(outcomes(report), [
      "json:passed",
      "format:passed",
      "hash:passed",
      "signatures:failed",
      "parse:skipped",
    ]);
    assert.equal(
      report.checks[3]?.detail,
      "wrong number of signatures: cmd has 1 signer(s) but sigs has 0 entries",
    );
  });

  it("fails a hash that matches neither algorithm", () => {
    const body = JSON.parse(commandText("(+ 1 2)"));
    body.hash = "A".repeat(43);
    const report = verifyRequest(JSON.stringify(body), openMemoryPactDb(), "blake2s");
    assert.deepEqual(outcomes(report).slice(0, 4), [
      "json:passed",
      "format:passed",
      "hash:failed",
      "signatures:failed",
    ]);
    assert.match(report.checks[2]?.detail ?? "", /^hash mismatch: received "AAAA/);
  });

  it("reports syntax and compile errors of code with their location", () => {
    const db = openMemoryPactDb();
    const syntax = verifyRequest(JSON.stringify({ code: "(+ 1" }), db, "blake2s");
    assert.equal(syntax.kind, "code");
    assert.deepEqual(outcomes(syntax), [
      "json:passed",
      "format:passed",
      "parse:failed",
      "compile:skipped",
    ]);
    assert.equal(
      syntax.checks[2]?.detail,
      "(tx):1:5: expected ')' to close '(' opened at 1:1, found the end of the input",
    );
    const unbound = verifyRequest(
      JSON.stringify({ code: "(module m G (defcap G () true) (defun f () (nope)))" }),
      db,
      "blake2s",
    );
    assert.equal(unbound.valid, false);
    assert.equal(unbound.checks[3]?.outcome, "failed");
    assert.match(unbound.checks[3]?.detail ?? "", /nope.*\(EvalError at <toplevel>:0\)$/);
  });

  it("reports malformed JSON and a body that is neither a command nor code", () => {
    const db = openMemoryPactDb();
    assert.deepEqual(verifyRequest("{", db, "blake2s"), {
      valid: false,
      kind: null,
      requestKey: null,
      checks: [
        {
          check: "json",
          outcome: "failed",
          detail: "malformed JSON: Expected property name or '}' in JSON at position 1",
        },
        { check: "format", outcome: "skipped", detail: "the body is not JSON" },
      ],
    });
    const other = verifyRequest("[1]", db, "blake2s");
    assert.deepEqual(outcomes(other), [
      "json:passed",
      "format:failed",
      "hash:skipped",
      "signatures:skipped",
      "parse:skipped",
    ]);
  });
});
