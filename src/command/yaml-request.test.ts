import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonNumber, type JsonValue } from "../pact/values/json-text.ts";
import {
  type ApiRequest,
  defaultNonce,
  parseApiRequest,
  type RequestEnvironment,
} from "./yaml-request.ts";

const ALICE = "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c";
const ALICE_SECRET = "01".repeat(32);
const BOB = "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394";

/** Compact JSON text of a parsed value, numbers exactly as read. */
function stringifyJson(value: JsonValue | readonly JsonValue[]): string {
  if (value instanceof JsonNumber) return value.text;
  if (value instanceof Map) {
    return `{${[...value].map(([k, v]) => `${JSON.stringify(k)}:${stringifyJson(v)}`).join(",")}}`;
  }
  if (Array.isArray(value)) return `[${value.map(stringifyJson).join(",")}]`;
  return JSON.stringify(value);
}

const files: Record<string, string> = {
  "reqs/code.pact": '(format "{}" ["hi"])\n',
  "reqs/data.json": '{"amount": 0.1000000000000000055, "ks": {"keys": [], "pred": "keys-all"}}',
  "reqs/bad.json": "{nope}",
};
const env: RequestEnvironment = {
  readFile: (path) => {
    const text = files[path];
    if (text === undefined) throw new Error(`test has no file ${path}`);
    return text;
  },
  now: () => new Date(Date.UTC(2024, 4, 1, 12, 0, 0, 500)),
};

const read = (text: string, unsigned = false): ApiRequest =>
  parseApiRequest(text, "reqs/req.yaml", unsigned, env);

describe("YAML exec requests", () => {
  it("read every field, keeping numbers exact", () => {
    const request = read(`
code: (+ 1 2)
data: {amount: 1.10, big: 12345678901234567890}
keyPairs:
  - public: ${ALICE}
    secret: ${ALICE_SECRET}
    caps:
      - name: coin.TRANSFER
        args: [alice, bob, 1.0]
nonce: n-1
networkId: testnet
publicMeta: {chainId: "1", sender: alice, gasLimit: 1000, gasPrice: 1.0e-8, ttl: 600, creationTime: 1700000000}
`);
    const { payload, keys } = request;
    assert.equal(payload.payload.kind, "exec");
    assert.equal(payload.payload.kind === "exec" && payload.payload.code, "(+ 1 2)");
    assert.equal(stringifyJson(payload.payload.data), '{"amount":1.10,"big":12345678901234567890}');
    assert.equal(payload.signers.length, 1);
    assert.equal(payload.signers[0]?.pubKey, ALICE);
    assert.equal(payload.signers[0]?.scheme, null);
    assert.equal(stringifyJson(payload.signers[0]?.clist[0]?.args ?? []), '["alice","bob",1.0]');
    assert.equal(payload.nonce, "n-1");
    assert.equal(payload.networkId, "testnet");
    assert.deepEqual(
      { ...payload.meta, gasPrice: payload.meta.kind === "public" && payload.meta.gasPrice.text },
      {
        kind: "public",
        creationTime: 1700000000,
        ttl: 600,
        gasLimit: 1000,
        chainId: "1",
        gasPrice: "1.0e-8",
        sender: "alice",
      },
    );
    assert.equal(payload.verifiers, null);
    assert.deepEqual(
      keys.map((k) => k.publicHex),
      [ALICE],
    );
  });

  it("fill what is left out with zeros, empty text, null and the current time", () => {
    const { payload, keys } = read("code: (+ 1 2)\n");
    assert.deepEqual(
      { ...payload, meta: { ...payload.meta, gasPrice: undefined } },
      {
        payload: { kind: "exec", code: "(+ 1 2)", data: null },
        meta: {
          kind: "public",
          creationTime: 0,
          ttl: 0,
          gasLimit: 0,
          chainId: "",
          gasPrice: undefined,
          sender: "",
        },
        signers: [],
        verifiers: null,
        networkId: null,
        nonce: "2024-05-01 12:00:00.5 UTC",
      },
    );
    assert.equal(payload.meta.kind === "public" && payload.meta.gasPrice.text, "0");
    assert.deepEqual(keys, []);
    // The spec's rule holds inside publicMeta too: no current time, no default ttl.
    const meta = read("code: x\npublicMeta: {chainId: '0'}\n").payload.meta;
    assert.equal(meta.kind === "public" && `${meta.creationTime} ${meta.ttl}`, "0 0");
  });

  it("read codeFile and dataFile next to the request", () => {
    const { payload } = read("codeFile: code.pact\ndataFile: data.json\n");
    assert.equal(payload.payload.kind === "exec" && payload.payload.code, '(format "{}" ["hi"])\n');
    assert.equal(
      stringifyJson(payload.payload.data),
      '{"amount":0.1000000000000000055,"ks":{"keys":[],"pred":"keys-all"}}',
    );
  });

  it("take signers, with scheme and address, for an unsigned request", () => {
    const { payload, keys } = read(
      `code: x\nsigners:\n  - public: ${BOB}\n    scheme: WebAuthn\n    address: addr\n    caps: [{name: free.m.CAP, args: []}]\n`,
      true,
    );
    assert.deepEqual(payload.signers, [
      { pubKey: BOB, scheme: "WebAuthn", addr: "addr", clist: [{ name: "free.m.CAP", args: [] }] },
    ]);
    assert.deepEqual(keys, []);
  });

  it("take the public keys of keyPairs for an unsigned request, as -a writes them, naming each secret left unused", () => {
    const text = `code: x\nkeyPairs:\n  - public: ${ALICE.toUpperCase()}\n    secret: ${ALICE_SECRET}\n    caps: [{name: coin.GAS, args: []}]\n  - public: ${BOB}\n`;
    const unsigned = read(text, true);
    assert.deepEqual(unsigned.payload.signers, [
      { pubKey: ALICE, scheme: null, addr: null, clist: [{ name: "coin.GAS", args: [] }] },
      { pubKey: BOB, scheme: null, addr: null, clist: [] },
    ]);
    assert.deepEqual(unsigned.keys, []);
    assert.deepEqual(unsigned.unusedSecrets, ["keyPairs[0]"]);
    const signed = read(
      `code: x\nkeyPairs:\n  - secret: ${ALICE_SECRET}\n    caps: [{name: coin.GAS, args: []}]\n`,
    );
    assert.deepEqual(unsigned.payload.signers[0], signed.payload.signers[0]);
    assert.deepEqual(signed.unusedSecrets, []);
  });

  it("read a hex key written only with digits as text", () => {
    const digits = `${"0".repeat(63)}1`;
    const { keys } = read(`code: x\nkeyPairs:\n  - secret: ${digits}\n`);
    assert.equal(
      keys[0]?.publicHex,
      "4cb5abf6ad79fbf5abbccafcc269d85cd2651ed4b885b5869f241aedf0a5ba29",
    );
  });

  it("read verifiers", () => {
    const { payload } = read(
      "code: x\nverifiers:\n  - name: hyperlane\n    proof: abc\n    clist: [{name: m.C, args: [1]}]\n",
    );
    assert.equal(payload.verifiers?.length, 1);
    assert.equal(payload.verifiers?.[0]?.name, "hyperlane");
    assert.equal(payload.verifiers?.[0]?.proof, "abc");
    assert.equal(stringifyJson(payload.verifiers?.[0]?.clist[0]?.args ?? []), "[1]");
  });
});

describe("YAML cont requests", () => {
  it("read pactTxHash, step, rollback and proof", () => {
    const { payload } = read(
      "type: cont\npactTxHash: TNgO7o8nSZILVCfJPcg5IjHADy-XKvQ7o5RfAieJvwY\nstep: 1\nrollback: false\nproof: xyz\nnonce: c\n",
    );
    assert.deepEqual(payload.payload, {
      kind: "cont",
      pactId: "TNgO7o8nSZILVCfJPcg5IjHADy-XKvQ7o5RfAieJvwY",
      step: 1,
      rollback: false,
      data: null,
      proof: "xyz",
    });
  });

  it("accept the spec's contractTxHash, also as an integer", () => {
    const id = (text: string) => {
      const p = read(`type: cont\n${text}\nstep: 0\nrollback: true\n`).payload.payload;
      return p.kind === "cont" && p.pactId;
    };
    assert.equal(id("contractTxHash: abc_-w"), "abc_-w");
    assert.equal(id("contractTxHash: 42"), "42");
  });
});

describe("YAML request errors", () => {
  const cases: [string, string, boolean?][] = [
    [
      "code: x\nbogus: 1\n",
      'reqs/req.yaml: unknown key "bogus" in an exec request; valid keys are: type, data, dataFile, keyPairs, signers, verifiers, nonce, networkId, publicMeta, code, codeFile',
    ],
    [
      "type: cont\ncode: x\n",
      'reqs/req.yaml: unknown key "code" in a cont request; valid keys are: type, data, dataFile, keyPairs, signers, verifiers, nonce, networkId, publicMeta, pactTxHash, contractTxHash, step, rollback, proof',
    ],
    [
      "code: x\npublicMeta: {gas: 1}\n",
      'reqs/req.yaml: unknown key "publicMeta.gas" in publicMeta; valid keys are: chainId, sender, gasLimit, gasPrice, ttl, creationTime',
    ],
    ["type: run\n", 'reqs/req.yaml: type must be "exec" or "cont", got "run"'],
    ["data: 1\n", 'reqs/req.yaml: an exec request needs exactly one of "code" and "codeFile"'],
    [
      "code: x\ncodeFile: y\n",
      'reqs/req.yaml: an exec request needs exactly one of "code" and "codeFile"',
    ],
    ["code: x\ndata: 1\ndataFile: d\n", 'reqs/req.yaml: give "data" or "dataFile", not both'],
    [
      "code: x\ndataFile: bad.json\n",
      "reqs/req.yaml: dataFile bad.json is not valid JSON: invalid JSON at offset 1: expected a string key",
    ],
    [
      `code: x\nkeyPairs:\n  - public: ${BOB}\n    secret: ${ALICE_SECRET}\n`,
      `reqs/req.yaml: keyPairs[0].public ${BOB} does not match the secret key, whose public key is ${ALICE}`,
    ],
    [
      "code: x\nkeyPairs:\n  - secret: 12zz\n",
      'reqs/req.yaml: keyPairs[0].secret is not hexadecimal: "12zz"',
    ],
    ["code: x\nkeyPairs:\n  - public: abc\n", 'reqs/req.yaml: missing "keyPairs[0].secret"'],
    [
      `code: x\nkeyPairs:\n  - secret: ${ALICE_SECRET}\n    caps: [{name: TRANSFER, args: []}]\n`,
      'reqs/req.yaml: keyPairs[0].caps[0].name must be a qualified capability name such as coin.TRANSFER, got "TRANSFER"',
    ],
    [
      `code: x\nkeyPairs:\n  - secret: ${ALICE_SECRET}\n    caps: [{name: coin.GAS}]\n`,
      'reqs/req.yaml: missing "keyPairs[0].caps[0].args"',
    ],
    [
      `code: x\nsigners:\n  - public: ${BOB}\n`,
      'reqs/req.yaml: "signers" is for unsigned requests (-u); give "keyPairs" to sign',
    ],
    ["code: x\n", 'reqs/req.yaml: an unsigned request (-u) needs "signers" or "keyPairs"', true],
    [
      `code: x\nkeyPairs: []\nsigners: []\n`,
      'reqs/req.yaml: give "signers" or "keyPairs" in an unsigned request (-u), not both',
      true,
    ],
    [
      `code: x\nkeyPairs:\n  - secret: ${ALICE_SECRET}\n`,
      'reqs/req.yaml: missing "keyPairs[0].public"',
      true,
    ],
    [
      "code: x\nkeyPairs:\n  - public: abc\n",
      `reqs/req.yaml: keyPairs[0].public is not hexadecimal: "abc"`,
      true,
    ],
    [
      "code: x\nnonce: 12\n",
      "reqs/req.yaml: nonce must be a string (quote it if it looks like a number), got a number 12",
    ],
    [
      "code: x\npublicMeta: {gasLimit: 1.5}\n",
      "reqs/req.yaml: publicMeta.gasLimit must be an integer, got a number 1.5",
    ],
    [
      "code: x\npublicMeta: {ttl: 99999999999999999999}\n",
      "reqs/req.yaml: publicMeta.ttl 99999999999999999999 is out of range (at most 9007199254740991 in size)",
    ],
    [
      "code: x\npublicMeta: {gasPrice: cheap}\n",
      'reqs/req.yaml: publicMeta.gasPrice must be a decimal number, got a string "cheap"',
    ],
    [
      "code: x\npublicMeta: 5\n",
      "reqs/req.yaml: publicMeta must be a mapping of metadata fields, got a number",
    ],
    [
      "type: cont\nstep: 1\nrollback: false\n",
      'reqs/req.yaml: a cont request needs "pactTxHash" (or "contractTxHash")',
    ],
    [
      "type: cont\npactTxHash: a+b\nstep: 1\nrollback: false\n",
      'reqs/req.yaml: pactTxHash must be a base64url transaction hash: invalid base64url: character "+" is not in the alphabet A-Z a-z 0-9 - _',
    ],
    ["type: cont\npactTxHash: abc\nrollback: false\n", 'reqs/req.yaml: missing "step"'],
    [
      "type: cont\npactTxHash: abc\nstep: 1\nrollback: no\n",
      'reqs/req.yaml: rollback must be true or false, got a string "no"',
    ],
    ["- code\n", "reqs/req.yaml: must be a mapping of request fields, got an array"],
    [
      "code: x\ndata: {n: 1e100001}\n",
      "reqs/req.yaml: data is not a valid Pact value: JSON number exponent too large (max 100000): 1e100001",
    ],
    [
      "code: x\ncode: y\n",
      "reqs/req.yaml: invalid YAML: Map keys must be unique at line 2, column 1",
    ],
  ];
  for (const [text, message, unsigned] of cases) {
    it(`reports: ${message.slice(15, 75)}`, () => {
      assert.throws(() => read(text, unsigned), { name: "CommandInputError", message });
    });
  }
});

describe("default nonce", () => {
  it("is the time as Pact shows it, without trailing zeros", () => {
    assert.equal(
      defaultNonce(new Date(Date.UTC(2022, 2, 29, 20, 17, 21, 296))),
      "2022-03-29 20:17:21.296 UTC",
    );
    assert.equal(
      defaultNonce(new Date(Date.UTC(2022, 2, 29, 20, 17, 21, 0))),
      "2022-03-29 20:17:21 UTC",
    );
  });
});
