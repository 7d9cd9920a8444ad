import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keyPairFromSeed } from "../crypto/index.ts";
import { JsonNumber } from "../pact/values/json-text.ts";
import { buildCommand, buildSigData } from "./build.ts";
import { encodeCommandPayload } from "./cmd-encoder.ts";
import { encodeCommandJson, encodeSubmitBatch } from "./command-json.ts";
import type { SigningKey } from "./key-file.ts";
import {
  addSignatures,
  combineSigData,
  finishSigData,
  formatSigData,
  parseSigData,
} from "./sig-data.ts";
import type { CommandPayload } from "./types.ts";
import { parseCommand } from "./verify.ts";
import { parseApiRequest, type RequestEnvironment } from "./yaml-request.ts";

const ALICE = "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c";
const BOB = "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394";
const alice: SigningKey = { ...keyPairFromSeed(new Uint8Array(32).fill(1)), publicHex: ALICE };
const bob: SigningKey = { ...keyPairFromSeed(new Uint8Array(32).fill(2)), publicHex: BOB };

const env: RequestEnvironment = {
  readFile: () => assert.fail("no files in this test"),
  now: () => new Date(0),
};

const REQUEST = `
code: |-
  (coin.transfer "alice" "bob" 1.0)
data: {account: alice, balance: 1.5, tags: [a, "é/\\t"]}
keyPairs:
  - public: ${ALICE}
    secret: ${"01".repeat(32)}
    caps: [{name: coin.TRANSFER, args: [alice, bob, 1.0]}, {name: coin.GAS, args: []}]
nonce: fixed-nonce
networkId: testnet04
publicMeta: {chainId: "0", sender: alice, gasLimit: 1200, gasPrice: 0.00000001, ttl: 600, creationTime: 1700000000}
`;

// Pact's order and encodings: data re-encoded as Pact values (keys in Pact's order, 1.0 as 1),
// gasPrice in aeson's exponent form, "/" and non-ASCII written raw, a tab escaped.
const EXPECTED_CMD = `{"networkId":"testnet04","payload":{"exec":{"data":{"balance":1.5,"account":"alice","tags":["a","é/\\t"]},"code":"(coin.transfer \\"alice\\" \\"bob\\" 1.0)"}},"signers":[{"pubKey":"${ALICE}","clist":[{"name":"coin.TRANSFER","args":["alice","bob",1]},{"name":"coin.GAS","args":[]}]}],"meta":{"creationTime":1700000000,"ttl":600,"gasLimit":1200,"chainId":"0","gasPrice":1.0e-8,"sender":"alice"},"nonce":"fixed-nonce"}`;

describe("building a command from a YAML request", () => {
  const request = parseApiRequest(REQUEST, "req.yaml", false, env);

  it("writes the cmd in Pact's field order with fixed bytes", () => {
    assert.equal(encodeCommandPayload(request.payload), EXPECTED_CMD);
  });

  it("hashes it with Blake2s-256 or Blake2b-256 and signs the hash", () => {
    const s = buildCommand(request, "blake2s");
    const b = buildCommand(request, "blake2b");
    assert.equal(s.hash, "Yslr3b7Jb7lBNg5m3P-8PZPb9W_t48mz6hWryXqNk_Q");
    assert.equal(b.hash, "Bo-epTL8MVHRQigfYM1CFbcKjL-BU_fzBHlgfy9UN0I");
    assert.equal(s.cmd, EXPECTED_CMD);
    for (const command of [s, b]) {
      const result = parseCommand(command);
      assert.equal(result.ok, true);
    }
    assert.equal(
      encodeSubmitBatch([s]),
      `{"cmds":[{"hash":"${s.hash}","sigs":[{"sig":"${s.sigs[0]?.sig}"}],"cmd":${JSON.stringify(EXPECTED_CMD)}}]}`,
    );
  });
});

describe("encoding payloads", () => {
  const base: CommandPayload = {
    payload: { kind: "cont", pactId: "pid", step: 2, rollback: true, data: null, proof: "prf" },
    meta: { kind: "private", address: { from: "A", to: ["B"] } },
    signers: [
      { pubKey: "k", scheme: "WebAuthn", addr: "a", clist: [] },
      { pubKey: "k2", scheme: null, addr: null, clist: [] },
    ],
    verifiers: [{ name: "v", proof: "p", clist: [{ name: "m.C", args: [new JsonNumber("5")] }] }],
    networkId: null,
    nonce: "n",
  };

  it("writes continuations, private metadata, scheme, addr and verifiers in Pact's order", () => {
    assert.equal(
      encodeCommandPayload(base),
      '{"networkId":null,"payload":{"cont":{"proof":"prf","data":null,"pactId":"pid","rollback":true,"step":2}},"signers":[{"addr":"a","scheme":"WebAuthn","pubKey":"k"},{"pubKey":"k2"}],"verifiers":[{"name":"v","proof":"p","clist":[{"name":"m.C","args":[5]}]}],"meta":{"address":{"to":["B"],"from":"A"}},"nonce":"n"}',
    );
  });

  it("writes Braid's private gasLimit after the address", () => {
    const meta = { kind: "private", address: null, gasLimit: 700 } as const;
    assert.match(
      encodeCommandPayload({ ...base, meta }),
      /"meta":\{"address":null,"gasLimit":700\}/,
    );
  });

  it("writes gasPrice as aeson writes a number", () => {
    const meta = (gasPrice: string): string => {
      const cmd = encodeCommandPayload({
        ...base,
        verifiers: null,
        meta: {
          kind: "public",
          creationTime: 0,
          ttl: 0,
          gasLimit: 0,
          chainId: "",
          gasPrice: new JsonNumber(gasPrice),
          sender: "",
        },
      });
      return cmd.slice(cmd.indexOf('"gasPrice":') + 11, cmd.indexOf(',"sender"'));
    };
    assert.deepEqual(
      ["0", "1e-8", "0.00000001", "0.1", "0.05", "2.50", "12345678.5", "1e3"].map(meta),
      ["0", "1.0e-8", "1.0e-8", "0.1", "5.0e-2", "2.5", "1.23456785e7", "1000"],
    );
  });
});

describe("-u, add-sig, combine-sigs as functions", () => {
  it("round trip to a command that verifies", () => {
    const request = parseApiRequest(
      `code: (+ 1 2)\nsigners: [{public: ${ALICE}}, {public: ${BOB}}]\nnonce: n\npublicMeta: {creationTime: 5}\n`,
      "u.yaml",
      true,
      env,
    );
    const unsigned = buildSigData(request, "blake2s");
    // What -u prints reads back the same.
    const text = formatSigData(unsigned);
    assert.deepEqual(parseSigData(text, "u.yaml"), unsigned);
    assert.equal(finishSigData(unsigned).kind, "partial");

    const byAlice = addSignatures(parseSigData(text, "u.yaml"), [alice]).sigData;
    const byBob = addSignatures(parseSigData(text, "u.yaml"), [bob]).sigData;
    const outcome = finishSigData(
      combineSigData([
        { source: "a", sigData: parseSigData(formatSigData(byAlice), "a") },
        { source: "b", sigData: parseSigData(formatSigData(byBob), "b") },
      ]),
    );
    assert.equal(outcome.kind, "complete");
    if (outcome.kind !== "complete") return;
    const result = parseCommand(JSON.parse(encodeCommandJson(outcome.command)));
    assert.equal(result.ok && result.command.hashAlgorithm, "blake2s");
    assert.equal(result.ok && result.command.payload.signers.length, 2);
  });
});
