import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeBase64Url, encodeHex, keyPairFromSeed, sign } from "../crypto/index.ts";
import { JsonNumber } from "../pact/values/json-text.ts";
import { type CommandHashAlgorithm, commandHash } from "./hash-algorithm.ts";
import type { CommandParseResult, CommandProblem, ParsedCommand } from "./types.ts";
import { parseCommand } from "./verify.ts";

const alice = keyPairFromSeed(new Uint8Array(32).fill(1));
const bob = keyPairFromSeed(new Uint8Array(32).fill(2));
const ALICE = encodeHex(alice.publicKey);
const BOB = encodeHex(bob.publicKey);

/** A cmd with fields in an unusual order and the exponent form of gasPrice. */
function execCmd(signers: string[], extra = ""): string {
  const signerJson = signers.map((k) => `{"pubKey":"${k}"}`).join(",");
  return `{"nonce":"n-1","meta":{"sender":"alice","gasPrice":1.0e-8,"chainId":"0","ttl":600,"gasLimit":1000,"creationTime":1700000000},"signers":[${signerJson}],"payload":{"exec":{"code":"(+ 1 2)","data":{"x":0.1000000000000000055}}},"networkId":"testnet"${extra}}`;
}

function signed(cmd: string, secrets: Uint8Array[], alg: CommandHashAlgorithm) {
  const hash = commandHash(cmd, alg);
  return {
    cmd,
    hash: encodeBase64Url(hash),
    sigs: secrets.map((s) => ({ sig: encodeHex(sign(hash, s)) })),
  };
}

function accepted(result: CommandParseResult): ParsedCommand {
  if (!result.ok) assert.fail(`rejected: ${result.problems.map((p) => p.message).join("; ")}`);
  return result.command;
}

function problems(result: CommandParseResult): readonly CommandProblem[] {
  if (result.ok) assert.fail("accepted a bad command");
  return result.problems;
}

// The exact request @kadena/client 1.18 sends (Blake2b-256 hash, gasPrice 1e-8, extra pubKey).
const KADENA_CLIENT_COMMAND = {
  cmd: '{"payload":{"exec":{"code":"(coin.transfer \\"sender00\\" \\"sender01\\" 1.0)","data":{"ks":{"keys":["368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca"],"pred":"keys-all"}}}},"nonce":"demo-nonce-1","signers":[{"pubKey":"368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca","scheme":"ED25519","clist":[{"name":"coin.GAS","args":[]},{"name":"coin.TRANSFER","args":["sender00","sender01",{"decimal":"1.0"}]}]}],"meta":{"gasLimit":1000,"gasPrice":1e-8,"sender":"sender00","ttl":600,"creationTime":1795303514,"chainId":"0"},"networkId":"development"}',
  hash: "KgyOBFjtSXKKmOv4hnWJKTOtQuG4yah9ML-kPAiVfro",
  sigs: [
    {
      pubKey: "368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca",
      sig: "f84825165c45de4abd529770988fa34f24949a6efb9fdc505bf131921ed0ad6a1dadc7bfe59990cb99eaeb0d80a52f8bbcf659a5af6313211d8edab18f8a980c",
    },
  ],
};

describe("parseCommand accepts", () => {
  it("the command @kadena/client sends, hashed with Blake2b-256", () => {
    const command = accepted(parseCommand(KADENA_CLIENT_COMMAND));
    assert.equal(command.hashAlgorithm, "blake2b");
    assert.equal(command.hash, "KgyOBFjtSXKKmOv4hnWJKTOtQuG4yah9ML-kPAiVfro");
    assert.deepEqual(command.sigs, [KADENA_CLIENT_COMMAND.sigs[0]?.sig]);
    const { payload, meta, signers, networkId, nonce, verifiers } = command.payload;
    assert.deepEqual(payload, {
      kind: "exec",
      code: '(coin.transfer "sender00" "sender01" 1.0)',
      data: new Map([
        [
          "ks",
          new Map<string, unknown>([
            ["keys", ["368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca"]],
            ["pred", "keys-all"],
          ]),
        ],
      ]),
    });
    assert.deepEqual(meta, {
      kind: "public",
      creationTime: 1795303514,
      ttl: 600,
      gasLimit: 1000,
      chainId: "0",
      gasPrice: new JsonNumber("1e-8"),
      sender: "sender00",
    });
    assert.deepEqual(signers, [
      {
        pubKey: "368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca",
        scheme: "ED25519",
        addr: null,
        clist: [
          { name: "coin.GAS", args: [] },
          { name: "coin.TRANSFER", args: ["sender00", "sender01", new Map([["decimal", "1.0"]])] },
        ],
      },
    ]);
    assert.equal(networkId, "development");
    assert.equal(nonce, "demo-nonce-1");
    assert.equal(verifiers, null);
  });

  it("a Blake2s-256 command with two signers, any field order, exact numbers", () => {
    const command = accepted(
      parseCommand(signed(execCmd([ALICE, BOB]), [alice.secretKey, bob.secretKey], "blake2s")),
    );
    assert.equal(command.hashAlgorithm, "blake2s");
    assert.equal(
      command.payload.meta.kind === "public" && command.payload.meta.gasPrice.text,
      "1.0e-8",
    );
    assert.deepEqual(
      command.payload.payload.kind === "exec" && command.payload.payload.data,
      new Map([["x", new JsonNumber("0.1000000000000000055")]]),
    );
  });

  it("empty signature slots when signature checking is off", () => {
    const body = {
      ...signed(execCmd([ALICE, BOB, ALICE]), [], "blake2b"),
      sigs: [null, { sig: "" }, {}],
    };
    assert.deepEqual(accepted(parseCommand(body, { verifySignatures: false })).sigs, [
      null,
      null,
      null,
    ]);
    const none = { ...body, sigs: [] };
    assert.deepEqual(accepted(parseCommand(none, { verifySignatures: false })).sigs, []);
  });

  it("integers written as strings or Pact integers, and gasPrice as a decimal string", () => {
    const cmd = execCmd([])
      .replace('"ttl":600', '"ttl":"600"')
      .replace('"gasLimit":1000', '"gasLimit":{"int":1000}')
      .replace("1.0e-8", '"0.00000001"');
    const meta = accepted(parseCommand(signed(cmd, [], "blake2s"))).payload.meta;
    assert.deepEqual(meta.kind === "public" && [meta.ttl, meta.gasLimit, meta.gasPrice], [
      600,
      1000,
      new JsonNumber("0.00000001"),
    ]);
  });

  it("a continuation with private metadata and verifiers", () => {
    const cmd =
      '{"networkId":null,"payload":{"cont":{"proof":null,"data":null,"pactId":"abc","rollback":false,"step":1}},"signers":[],"verifiers":[{"name":"v","proof":"p","clist":[{"name":"m.CAP","args":[1]}]}],"meta":{"address":{"from":"A","to":["B","C"]}},"nonce":"x"}';
    const { payload } = accepted(parseCommand(signed(cmd, [], "blake2s")));
    assert.deepEqual(payload.payload, {
      kind: "cont",
      pactId: "abc",
      step: 1,
      rollback: false,
      data: null,
      proof: null,
    });
    assert.deepEqual(payload.meta, { kind: "private", address: { from: "A", to: ["B", "C"] } });
    assert.deepEqual(payload.verifiers, [
      { name: "v", proof: "p", clist: [{ name: "m.CAP", args: [new JsonNumber("1")] }] },
    ]);
    assert.equal(payload.networkId, null);
  });
});

describe("parseCommand rejects", () => {
  it("a tampered cmd, naming the received and both computed hashes", () => {
    const body = signed(execCmd([ALICE]), [alice.secretKey], "blake2s");
    const tampered = { ...body, cmd: body.cmd.replace('"gasLimit":1000', '"gasLimit":9000') };
    const s = encodeBase64Url(commandHash(tampered.cmd, "blake2s"));
    const b = encodeBase64Url(commandHash(tampered.cmd, "blake2b"));
    assert.deepEqual(problems(parseCommand(tampered)), [
      {
        kind: "hash-mismatch",
        message: `hash mismatch: received "${body.hash}", but cmd hashes to "${s}" with Blake2s-256 and "${b}" with Blake2b-256`,
      },
    ]);
  });

  it("a signature made by another key, naming its position", () => {
    const body = signed(execCmd([ALICE, BOB]), [alice.secretKey, alice.secretKey], "blake2b");
    assert.deepEqual(problems(parseCommand(body)), [
      { kind: "invalid-signature", message: `sigs[1]: invalid signature for signer 1 (${BOB})` },
    ]);
  });

  it("a missing signature, whether null, empty or absent", () => {
    const body = signed(execCmd([ALICE, BOB]), [alice.secretKey], "blake2s");
    for (const empty of [null, { sig: "" }, { sig: null }]) {
      assert.deepEqual(problems(parseCommand({ ...body, sigs: [body.sigs[0], empty] })), [
        { kind: "missing-signature", message: `sigs[1]: missing signature for signer 1 (${BOB})` },
      ]);
    }
  });

  it("the wrong number of signatures", () => {
    const body = signed(execCmd([ALICE, BOB]), [alice.secretKey], "blake2s");
    assert.deepEqual(problems(parseCommand(body)), [
      {
        kind: "signature-count",
        message: "wrong number of signatures: cmd has 2 signer(s) but sigs has 1 entry",
      },
    ]);
  });

  it("public keys and signatures that are not hex of the right length", () => {
    const body = signed(execCmd(["abc", ALICE]), [alice.secretKey, alice.secretKey], "blake2s");
    const bad = { ...body, sigs: [body.sigs[0], { sig: "zz" }] };
    assert.deepEqual(problems(parseCommand(bad)), [
      {
        kind: "bad-public-key",
        message: 'cmd.signers[0].pubKey must be 64 hex characters, got "abc"',
      },
      { kind: "invalid-signature", message: 'sigs[1].sig must be 128 hex characters, got "zz"' },
    ]);
  });

  it("malformed cmd JSON, still checking the hash", () => {
    const body = {
      cmd: '{"payload":',
      hash: encodeBase64Url(commandHash('{"payload":', "blake2b")),
      sigs: [],
    };
    assert.deepEqual(problems(parseCommand(body)), [
      {
        kind: "malformed-cmd",
        message: "cmd is not valid JSON: invalid JSON at offset 11: unexpected end of input",
      },
    ]);
  });

  it("every missing field and wrong type at once", () => {
    const cmd =
      '{"payload":{"exec":{"data":1}},"meta":{"creationTime":1.5,"ttl":"x","gasLimit":1e400,"chainId":0,"gasPrice":true},"signers":[{"pubKey":7,"clist":[{"args":{}}]}],"nonce":null}';
    assert.deepEqual(
      problems(parseCommand({ cmd, hash: "shortA", sigs: [7] })).map(
        (p) => `${p.kind}: ${p.message}`,
      ),
      [
        'bad-hash: hash "shortA" must be 43 characters of unpadded base64url encoding 32 bytes, but it has 6 characters, not 43',
        'missing-field: cmd.payload.exec is missing the field "code"',
        "wrong-type: cmd.meta.creationTime must be an integer, got 1.5",
        'wrong-type: cmd.meta.ttl must be an integer, got "x"',
        "wrong-type: cmd.meta.gasLimit is out of range (at most 9007199254740991 in size), got 1e400",
        "wrong-type: cmd.meta.chainId must be a string, got 0",
        "wrong-type: cmd.meta.gasPrice must be a decimal number, got true",
        'missing-field: cmd.meta is missing the field "sender"',
        "wrong-type: cmd.signers[0].pubKey must be a string, got 7",
        'missing-field: cmd.signers[0].clist[0] is missing the field "name"',
        "wrong-type: cmd.signers[0].clist[0].args must be an array, got an object",
        'missing-field: cmd is missing the field "networkId"',
        "wrong-type: cmd.nonce must be a string, got null",
        'wrong-type: sigs[0] must be an object {"sig": "<hex>"}, got number 7',
      ],
    );
  });

  it("an envelope that is not an object or lacks its fields", () => {
    assert.deepEqual(problems(parseCommand([])), [
      {
        kind: "not-an-object",
        message: "a command must be a JSON object {cmd, hash, sigs}, got an array",
      },
    ]);
    assert.deepEqual(
      problems(parseCommand({ cmd: 1, sigs: "x" })).map((p) => p.message),
      [
        'the command\'s "cmd" must be a string, got number 1',
        'the command is missing the field "hash"',
        'the command\'s "sigs" must be an array, got the string "x"',
      ],
    );
  });

  it("a hash that is not base64url, a payload with both exec and cont, and an unknown scheme", () => {
    const cmd = execCmd([])
      .replace('"payload":{"exec"', '"payload":{"cont":{},"exec"')
      .replace('"signers":[]', '"signers":[{"pubKey":"k","scheme":"RSA"}]');
    assert.deepEqual(
      problems(parseCommand({ cmd, hash: "a+b", sigs: [] })).map((p) => p.message),
      [
        'hash "a+b" must be 43 characters of unpadded base64url encoding 32 bytes, but it has characters outside A-Z, a-z, 0-9, _ and -',
        'cmd.payload has both "exec" and "cont"; it must have one',
        'cmd.signers[0].scheme must be "ED25519" or "WebAuthn", got "RSA"',
      ],
    );
  });

  it("WebAuthn signers and an addr that differs from the key", () => {
    const cmd = execCmd([]).replace(
      '"signers":[]',
      `"signers":[{"pubKey":"${ALICE}","scheme":"WebAuthn"},{"pubKey":"${ALICE}","addr":"${BOB}"}]`,
    );
    const body = signed(cmd, [alice.secretKey, alice.secretKey], "blake2s");
    assert.deepEqual(
      problems(parseCommand(body)).map((p) => p.message),
      [
        `signer 0 (${ALICE}): WebAuthn signatures are not supported`,
        `cmd.signers[1].addr "${BOB}" does not match its pubKey`,
      ],
    );
  });
});
