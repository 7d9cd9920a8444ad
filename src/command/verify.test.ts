import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeBase64Url, encodeHex, keyPairFromSeed, sign } from "../crypto/index.ts";
import { JsonNumber } from "../pact/values/json-text.ts";
import { type CommandHashAlgorithm, commandHash } from "./hash-algorithm.ts";
import {
  type Assertion,
  SoftwareAuthenticator,
  signatureText,
} from "./test-support/authenticator.ts";
import type { CommandParseResult, CommandProblem, ParsedCommand } from "./types.ts";
import { parseCommand, parseCommandAhead, parseCommandAsync } from "./verify.ts";

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

  it("private metadata with Braid's gasLimit beside the address, or a null address", () => {
    const meta = (text: string) => {
      const cmd = `{"networkId":null,"payload":{"exec":{"code":"1","data":null}},"signers":[],"meta":${text},"nonce":"x"}`;
      return accepted(parseCommand(signed(cmd, [], "blake2s"))).payload.meta;
    };
    assert.deepEqual(meta('{"address":{"from":"A","to":[]},"gasLimit":"500"}'), {
      kind: "private",
      address: { from: "A", to: [] },
      gasLimit: 500,
    });
    assert.deepEqual(meta('{"address":null,"gasLimit":null}'), { kind: "private", address: null });
  });

  it("a cmd without networkId, as Pact 5 parses it (null)", () => {
    const cmd =
      '{"payload":{"exec":{"code":"(+ 1 2)","data":null}},"signers":[],"meta":{"creationTime":0,"ttl":600,"gasLimit":1000,"chainId":"0","gasPrice":1.0e-8,"sender":"alice"},"nonce":"n"}';
    assert.equal(accepted(parseCommand(signed(cmd, [], "blake2s"))).payload.networkId, null);
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
      '{"payload":{"exec":{"data":1}},"meta":{"creationTime":1.5,"ttl":"x","gasLimit":1e400,"chainId":0,"gasPrice":true},"signers":[{"pubKey":7,"clist":[{"args":{}}]}],"networkId":5,"nonce":null}';
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
        "wrong-type: cmd.networkId must be a string or null, got 5",
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

  it("an addr that differs from the key of an ED25519 signer", () => {
    const cmd = execCmd([]).replace(
      '"signers":[]',
      `"signers":[{"pubKey":"${ALICE}","addr":"${BOB}"}]`,
    );
    assert.deepEqual(
      problems(parseCommand(signed(cmd, [alice.secretKey], "blake2s"))).map((p) => p.message),
      [`cmd.signers[0].addr "${BOB}" does not match its pubKey`],
    );
  });
});

/** A command with one WebAuthn signer whose key is `pubKey`, signed by `authenticator`. */
function webAuthnSigned(
  authenticator: SoftwareAuthenticator,
  pubKey = authenticator.publicKey,
  change: (assertion: Assertion) => Assertion = (a) => a,
) {
  const cmd = execCmd([]).replace(
    '"signers":[]',
    `"signers":[{"pubKey":"${pubKey}","scheme":"WebAuthn"}]`,
  );
  const hash = commandHash(cmd, "blake2b");
  const sig = signatureText(change(authenticator.assert(hash)));
  return { cmd, hash: encodeBase64Url(hash), sigs: [{ sig }] };
}

/** The same problems from the synchronous and the thread-pool verification. */
async function bothProblems(body: unknown): Promise<string[]> {
  const messages = problems(parseCommand(body)).map((p) => p.message);
  assert.deepEqual(
    problems(await parseCommandAsync(body)).map((p) => p.message),
    messages,
  );
  return messages;
}

describe("parseCommand with WebAuthn signers", () => {
  const passkey = new SoftwareAuthenticator("ES256");

  it("accepts a passkey's ES256 signature, on the event loop and on the thread pool", async () => {
    const body = webAuthnSigned(passkey);
    const command = accepted(parseCommand(body));
    assert.deepEqual(command.sigs, [body.sigs[0]?.sig]);
    assert.deepEqual(accepted(await parseCommandAsync(body)), command);
  });

  it("accepts an EdDSA credential, and a key sent without WEBAUTHN- as older wallets did", async () => {
    const yubikey = new SoftwareAuthenticator("EdDSA");
    accepted(parseCommand(webAuthnSigned(yubikey)));
    accepted(await parseCommandAsync(webAuthnSigned(yubikey)));
    accepted(parseCommand(webAuthnSigned(passkey, passkey.coseKeyHex)));
  });

  it("keeps the signature in Pact's form: its three fields in order, without spaces", () => {
    const body = webAuthnSigned(passkey);
    const fields = JSON.parse(body.sigs[0]?.sig ?? "") as Record<string, string>;
    const reordered = JSON.stringify(
      {
        signature: fields.signature,
        clientDataJSON: fields.clientDataJSON,
        authenticatorData: fields.authenticatorData,
        rpId: "x",
      },
      null,
      1,
    );
    const command = accepted(parseCommand({ ...body, sigs: [{ sig: reordered }] }));
    assert.deepEqual(command.sigs, [body.sigs[0]?.sig]);
  });

  it("rejects the signature when one byte of the authenticator data changes", async () => {
    const body = webAuthnSigned(passkey, passkey.publicKey, (a) => {
      const authenticatorData = Uint8Array.from(a.authenticatorData);
      authenticatorData[33]! ^= 1; // the signature counter
      return { ...a, authenticatorData };
    });
    assert.deepEqual(await bothProblems(body), [
      `sigs[0]: invalid WebAuthn signature for signer 0 (${passkey.publicKey.slice(0, 67)}...): the authenticator's signature does not verify with its key`,
    ]);
  });

  it("rejects a signature by another credential", async () => {
    const other = new SoftwareAuthenticator("ES256");
    const body = webAuthnSigned(other, passkey.publicKey);
    assert.deepEqual(await bothProblems(body), [
      `sigs[0]: invalid WebAuthn signature for signer 0 (${passkey.publicKey.slice(0, 67)}...): the authenticator's signature does not verify with its key`,
    ]);
  });

  it("rejects a signature over another command, naming clientDataJSON", async () => {
    const body = webAuthnSigned(passkey);
    const other = webAuthnSigned(passkey);
    const cmd = other.cmd.replace('"nonce":"n-1"', '"nonce":"n-2"');
    const hash = encodeBase64Url(commandHash(cmd, "blake2b"));
    assert.deepEqual(await bothProblems({ cmd, hash, sigs: body.sigs }), [
      `sigs[0].sig.clientDataJSON: its challenge is not the command's hash "${hash}", so it signs another command`,
    ]);
  });

  it("rejects a key that is not a COSE key, and an ED25519 signature for a WebAuthn signer", async () => {
    const body = webAuthnSigned(passkey, "WEBAUTHN-a401");
    assert.deepEqual(await bothProblems(body), [
      'cmd.signers[0].pubKey "WEBAUTHN-a401" is not a WebAuthn public key (the hex of a COSE key, after an optional "WEBAUTHN-"): its second entry is not the algorithm (label 3)',
    ]);
    const hexSig = "ab".repeat(64);
    assert.deepEqual(await bothProblems({ ...webAuthnSigned(passkey), sigs: [{ sig: hexSig }] }), [
      `sigs[0].sig must be a WebAuthn signature for signer 0 (${passkey.publicKey.slice(0, 67)}...): the text of a JSON object with the string fields "authenticatorData", "clientDataJSON" and "signature", got "${hexSig.slice(0, 67)}..."`,
    ]);
  });

  it("rejects a WebAuthn signature for an ED25519 signer", () => {
    const sig = webAuthnSigned(passkey).sigs[0]?.sig ?? "";
    const cmd = execCmd([ALICE]);
    const hash = encodeBase64Url(commandHash(cmd, "blake2b"));
    assert.deepEqual(
      problems(parseCommand({ cmd, hash, sigs: [{ sig }] })).map((p) => p.message),
      [`sigs[0].sig must be 128 hex characters, got "${sig.slice(0, 67)}..."`],
    );
  });
});

describe("parseCommandAhead", () => {
  it("gives the parsed command at once, and the same object once its signature is good", async () => {
    const ahead = parseCommandAhead(signed(execCmd([ALICE]), [alice.secretKey], "blake2b"));
    assert.notEqual(ahead.parsed, null);
    assert.equal(accepted(await ahead.result), ahead.parsed);
  });

  it("gives the parsed command at once, and its signature's problem later", async () => {
    const body = signed(execCmd([ALICE]), [bob.secretKey], "blake2b");
    const ahead = parseCommandAhead(body);
    assert.equal(ahead.parsed?.hash, body.hash);
    assert.deepEqual(
      problems(await ahead.result).map((p) => p.kind),
      ["invalid-signature"],
    );
  });

  it("gives null for a command that does not parse, and its problems", async () => {
    const ahead = parseCommandAhead({ cmd: "{}", hash: "x", sigs: [] });
    assert.equal(ahead.parsed, null);
    assert.ok(problems(await ahead.result).length > 0);
  });
});
