import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeHex, encodeBase64Url, encodeHex, keyPairFromSeed, verify } from "../crypto/index.ts";
import { CommandInputError } from "./errors.ts";
import { formatKeyPair, parseKeyFile, type SigningKey } from "./key-file.ts";
import {
  addSignatures,
  combineSigData,
  encodeSigDataJson,
  finishSigData,
  formatSigData,
  formatSignatures,
  parseSigData,
  type SigData,
  signData,
  unsignedSigData,
} from "./sig-data.ts";
import { parseCommand } from "./verify.ts";

const ALICE = "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c";
const BOB = "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394";
const alice: SigningKey = { ...keyPairFromSeed(new Uint8Array(32).fill(1)), publicHex: ALICE };
const bob: SigningKey = { ...keyPairFromSeed(new Uint8Array(32).fill(2)), publicHex: BOB };
const carol: SigningKey = { ...keyPairFromSeed(new Uint8Array(32).fill(3)), publicHex: "" };

const CMD = `{"networkId":"testnet","payload":{"exec":{"data":null,"code":"(+ 1 2)"}},"signers":[{"pubKey":"${ALICE}"},{"pubKey":"${BOB}","clist":[{"name":"coin.GAS","args":[]}]}],"meta":{"creationTime":1700000000,"ttl":600,"gasLimit":1000,"chainId":"0","gasPrice":1.0e-8,"sender":"alice"},"nonce":"n-1"}`;
const HASH = "Gz4w71eAhXolTE9Ka7hk7PzJG7mcsq8hT6HyzmzpwNA"; // Blake2s-256 of CMD
const ALICE_SIG =
  "14291c6100b263302b9d7731dc1127a4860e859ef6d91442a6e77d7bb8981d6ce9ad0902b59b6d2509b08547b215e5f313c8f2d422b9e8f82f33e23c71165609";
const BOB_SIG =
  "406c1044c8377809bc5642431b03d24ef548eaf15cfdab5ba3623eb54400f2416deccc1d41fcf23c315461b76920840fdddf3ffc4055dfc7235d4719d2c75e0d";

const unsigned: SigData = {
  hash: HASH,
  sigs: [
    { pubKey: ALICE, sig: null },
    { pubKey: BOB, sig: null },
  ],
  cmd: CMD,
};

describe("signing data YAML", () => {
  it("is written as hash, sigs and cmd, one line each", () => {
    assert.equal(
      formatSigData(unsigned),
      `hash: ${HASH}\nsigs:\n  ${ALICE}: null\n  ${BOB}: null\ncmd: '${CMD}'\n`,
    );
    assert.equal(formatSigData({ hash: HASH, sigs: [], cmd: null }), `hash: ${HASH}\nsigs: {}\n`);
  });

  it("reads back what it writes, in any key order", () => {
    assert.deepEqual(parseSigData(formatSigData(unsigned), "u.yaml"), unsigned);
    const reordered = `cmd: '${CMD}'\nsigs:\n  ${BOB}: ${BOB_SIG.toUpperCase()}\n  ${ALICE}: ~\nhash: ${HASH}\n`;
    assert.deepEqual(parseSigData(reordered, "r.yaml"), {
      hash: HASH,
      sigs: [
        { pubKey: BOB, sig: BOB_SIG },
        { pubKey: ALICE, sig: null },
      ],
      cmd: CMD,
    });
    assert.deepEqual(parseSigData(`hash: ${HASH}\nsigs: {}\ncmd: null\n`, "x").cmd, null);
  });

  it("is written as JSON on one line, hash, sigs and cmd, and read back as JSON too", () => {
    const json = encodeSigDataJson(unsigned);
    assert.equal(
      json,
      `{"hash":"${HASH}","sigs":{"${ALICE}":null,"${BOB}":null},"cmd":${JSON.stringify(CMD)}}`,
    );
    assert.deepEqual(JSON.parse(json), {
      hash: HASH,
      sigs: { [ALICE]: null, [BOB]: null },
      cmd: CMD,
    });
    assert.deepEqual(parseSigData(json, "u.json"), unsigned);
    const signed = { ...unsigned, sigs: [{ pubKey: ALICE, sig: ALICE_SIG }] };
    assert.deepEqual(parseSigData(encodeSigDataJson(signed), "s.json"), signed);
    const withoutCmd = { hash: HASH, sigs: [], cmd: null };
    assert.equal(encodeSigDataJson(withoutCmd), `{"hash":"${HASH}","sigs":{}}`);
    assert.deepEqual(parseSigData(encodeSigDataJson(withoutCmd), "n.json"), withoutCmd);
  });

  it("rejects bad fields with the file name and the bad value", () => {
    const cases: [string, string][] = [
      [
        "hash: x\nsigs: {}\nextra: 1\n",
        'f.yaml: unknown key "extra" in signing data; valid keys are: hash, sigs, cmd',
      ],
      ["sigs: {}\n", 'f.yaml: missing "hash"'],
      [`hash: ${HASH}\n`, 'f.yaml: missing "sigs"'],
      ["hash: abc\nsigs: {}\n", 'f.yaml: hash "abc" must be 32 bytes of base64url, got 2'],
      [
        "hash: a+c\nsigs: {}\n",
        'f.yaml: hash "a+c" is not base64url: invalid base64url: character "+" is not in the alphabet A-Z a-z 0-9 - _',
      ],
      [
        `hash: ${HASH}\nsigs: [1]\n`,
        "f.yaml: sigs must be a mapping of public key to signature or null, got an array",
      ],
      [
        `hash: ${HASH}\nsigs:\n  abc: null\n`,
        'f.yaml: sigs: public key "abc" must be 64 hex characters',
      ],
      [
        `hash: ${HASH}\nsigs:\n  ${ALICE}: beef\n`,
        `f.yaml: sigs.${ALICE} must be null or a signature of 128 hex characters`,
      ],
      [
        `hash: ${HASH}\nsigs: {}\ncmd: {a: 1}\n`,
        "f.yaml: cmd must be a string (quote it if it looks like a number), got an object",
      ],
      ["- 1\n", "f.yaml: must be a mapping of hash, sigs and cmd, got an array"],
      [
        "hash: [\n",
        "f.yaml: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1",
      ],
    ];
    for (const [text, message] of cases) {
      assert.throws(
        () => parseSigData(text, "f.yaml"),
        { name: "CommandInputError", message },
        text,
      );
    }
  });
});

describe("adding signatures", () => {
  it("signs with the listed keys and reports the others", () => {
    const { sigData, unused } = addSignatures(unsigned, [alice, carol]);
    assert.deepEqual(sigData.sigs, [
      { pubKey: ALICE, sig: ALICE_SIG },
      { pubKey: BOB, sig: null },
    ]);
    assert.deepEqual(unused, [carol]);
  });

  it("stays signing data while a signature is missing", () => {
    const partial = addSignatures(unsigned, [alice]).sigData;
    assert.deepEqual(finishSigData(partial), { kind: "partial", sigData: partial });
  });

  it("becomes a command that verifies once every signer has signed", () => {
    const outcome = finishSigData(addSignatures(unsigned, [bob, alice]).sigData);
    assert.deepEqual(outcome, {
      kind: "complete",
      command: { hash: HASH, sigs: [{ sig: ALICE_SIG }, { sig: BOB_SIG }], cmd: CMD },
    });
    assert.equal(outcome.kind === "complete" && parseCommand(outcome.command).ok, true);
  });

  it("reports a wrong signature, a tampered cmd and a signer missing from sigs", () => {
    const wrong: SigData = {
      ...unsigned,
      sigs: [
        { pubKey: ALICE, sig: BOB_SIG },
        { pubKey: BOB, sig: null },
      ],
    };
    assert.deepEqual(finishSigData(wrong), {
      kind: "invalid",
      problems: [`invalid signature for public key ${ALICE}`],
    });
    const tampered: SigData = { ...unsigned, cmd: CMD.replace("(+ 1 2)", "(+ 1 3)") };
    assert.deepEqual(finishSigData(tampered), {
      kind: "invalid",
      problems: [`hash ${HASH} is not the hash of cmd (neither Blake2s-256 nor Blake2b-256)`],
    });
    const missing: SigData = { ...unsigned, sigs: [{ pubKey: ALICE, sig: null }] };
    assert.deepEqual(finishSigData(missing), {
      kind: "invalid",
      problems: [
        "cmd has 2 signer key(s) but sigs lists 1",
        `signer ${BOB} of cmd is not listed in sigs`,
      ],
    });
  });

  it("verifies a complete command like a received one", () => {
    const badSig: SigData = {
      ...unsigned,
      sigs: [
        { pubKey: ALICE, sig: ALICE_SIG },
        { pubKey: BOB, sig: ALICE_SIG },
      ],
    };
    assert.deepEqual(finishSigData(badSig), {
      kind: "invalid",
      problems: [`sigs[1]: invalid signature for signer 1 (${BOB})`],
    });
  });

  it("builds the data of an unsigned command from its signers, one entry per key", () => {
    const signers = [ALICE, BOB, ALICE].map((pubKey) => ({
      pubKey,
      scheme: null,
      addr: null,
      clist: [],
    }));
    assert.deepEqual(unsignedSigData(CMD, HASH, signers), unsigned);
  });
});

describe("combining signing data", () => {
  const fromAlice = addSignatures(unsigned, [alice]).sigData;
  const fromBob = { ...addSignatures(unsigned, [bob]).sigData, cmd: null };

  it("merges signatures, keeping the cmd from whichever file has it", () => {
    const merged = combineSigData([
      { source: "b.yaml", sigData: fromBob },
      { source: "a.yaml", sigData: fromAlice },
    ]);
    assert.deepEqual(merged, {
      hash: HASH,
      sigs: [
        { pubKey: ALICE, sig: ALICE_SIG },
        { pubKey: BOB, sig: BOB_SIG },
      ],
      cmd: CMD,
    });
  });

  it("refuses files for different commands or signers", () => {
    const other = { ...unsigned, hash: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" };
    assert.throws(
      () =>
        combineSigData([
          { source: "a", sigData: unsigned },
          { source: "b", sigData: other },
        ]),
      {
        message: `b is for hash AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA but a is for hash ${HASH}`,
      },
    );
    const fewer = { ...unsigned, sigs: [{ pubKey: ALICE, sig: null }] };
    assert.throws(
      () =>
        combineSigData([
          { source: "a", sigData: unsigned },
          { source: "b", sigData: fewer },
        ]),
      {
        message: "b and a list different public keys",
      },
    );
    const otherCmd = { ...unsigned, cmd: `${CMD} ` };
    assert.throws(
      () =>
        combineSigData([
          { source: "a", sigData: unsigned },
          { source: "b", sigData: otherCmd },
        ]),
      {
        message: "b and a hold different cmd texts",
      },
    );
    assert.throws(() => combineSigData([]), CommandInputError);
  });
});

describe("sign", () => {
  it("signs a base64url hash read from standard input", () => {
    const signatures = signData(`  ${HASH}\n`, [alice, bob]);
    assert.equal(formatSignatures(signatures), `${ALICE}: ${ALICE_SIG}\n${BOB}: ${BOB_SIG}\n`);
  });

  it("signs base64url data of any length, as Pact's sign does", () => {
    const data = encodeBase64Url(new TextEncoder().encode("any data at all, not a hash"));
    const signature = signData(data, [alice]).get(ALICE)!;
    const message = new TextEncoder().encode("any data at all, not a hash");
    assert.equal(verify(message, decodeHex(signature), decodeHex(ALICE)), true);
  });

  it("refuses input that is not base64url", () => {
    assert.throws(() => signData("not base64url!", [alice]), {
      message: /^standard input: data "not base64url!" is not base64url: /,
    });
  });
});

describe("key files", () => {
  it("round trips what -g prints", () => {
    const text = formatKeyPair(alice);
    assert.equal(text, `public: ${ALICE}\nsecret: ${"01".repeat(32)}\n`);
    const key = parseKeyFile(text, "k.yaml");
    assert.equal(key.publicHex, ALICE);
    assert.equal(encodeHex(key.secretKey), "01".repeat(32));
    assert.equal(parseKeyFile(`secret: ${"01".repeat(32)}\n`, "k.yaml").publicHex, ALICE);
  });

  it("rejects a mismatched pair, non-hex keys and unknown keys", () => {
    const cases: [string, string][] = [
      [
        `public: ${BOB}\nsecret: ${"01".repeat(32)}\n`,
        `k.yaml: public ${BOB} does not match the secret key, whose public key is ${ALICE}`,
      ],
      ["secret: xyz\n", 'k.yaml: secret is not hexadecimal: "xyz"'],
      ["secret: abcd\n", 'k.yaml: secret must be 64 hex characters, got 4: "abcd"'],
      [
        `public: 12\nsecret: ${"01".repeat(32)}\n`,
        'k.yaml: public must be 64 hex characters, got 2: "12"',
      ],
      [`public: ${ALICE}\n`, 'k.yaml: missing "secret"'],
      [
        `secret: ${"01".repeat(32)}\nnote: x\n`,
        'k.yaml: unknown key "note" in a key file; valid keys are: public, secret',
      ],
    ];
    for (const [text, message] of cases) {
      assert.throws(
        () => parseKeyFile(text, "k.yaml"),
        { name: "CommandInputError", message },
        text,
      );
    }
  });
});
