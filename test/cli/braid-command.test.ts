/**
 * The `braid` command run for real, in a child process (the built `node dist/cli/main.js`):
 * exact output bytes, exit codes, and one-line errors.
 */
import assert from "node:assert/strict";
import { createPrivateKey, sign as cryptoSign } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { parseKeyFile } from "../../src/command/key-file.ts";
import { parseSigData } from "../../src/command/sig-data.ts";
import { parseCommand } from "../../src/command/verify.ts";
import { BRAID_VERSION } from "../../src/version.ts";
import { runBraid } from "../support/braid-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "braid-cli-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const braid = (args: string[], stdin = "") => runBraid(dir, args, stdin);

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

/** A user error: exit 1, nothing on stdout, exactly the given line on stderr. */
function assertUserError(args: string[], line: string, stdin = ""): void {
  const { code, stdout, stderr } = braid(args, stdin);
  assert.deepEqual(
    { code, stdout, stderr },
    { code: 1, stdout: "", stderr: `braid: ${line}\n` },
    args.join(" "),
  );
}

const ALICE = "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c";
const ALICE_SECRET = "01".repeat(32);
const BOB = "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394";
const BOB_SECRET = "02".repeat(32);

file("alice.yaml", `public: ${ALICE}\nsecret: ${ALICE_SECRET}\n`);
file("bob.yaml", `public: ${BOB}\nsecret: ${BOB_SECRET}\n`);

const REQUEST = `code: (coin.transfer "alice" "bob" 1.0)
data:
  account: alice
  balance: 1.5
  guard: {keys: [${ALICE}], pred: keys-all}
keyPairs:
  - public: ${ALICE}
    secret: ${ALICE_SECRET}
    caps:
      - {name: coin.TRANSFER, args: [alice, bob, 1.0]}
      - {name: coin.GAS, args: []}
nonce: braid-test-1
networkId: testnet04
publicMeta:
  chainId: "0"
  sender: alice
  gasLimit: 1200
  gasPrice: 0.00000001
  ttl: 600
  creationTime: 1700000000
`;
const EXPECTED_CMD = `{"networkId":"testnet04","payload":{"exec":{"data":{"guard":{"pred":"keys-all","keys":["${ALICE}"]},"balance":1.5,"account":"alice"},"code":"(coin.transfer \\"alice\\" \\"bob\\" 1.0)"}},"signers":[{"pubKey":"${ALICE}","clist":[{"name":"coin.TRANSFER","args":["alice","bob",1]},{"name":"coin.GAS","args":[]}]}],"meta":{"creationTime":1700000000,"ttl":600,"gasLimit":1200,"chainId":"0","gasPrice":1.0e-8,"sender":"alice"},"nonce":"braid-test-1"}`;

describe("braid basics", () => {
  it("prints its version and help", () => {
    assert.deepEqual(braid(["-v"]), {
      code: 0,
      stdout: `braid ${BRAID_VERSION} (pact 5.4)\n`,
      stderr: "",
    });
    const help = braid(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: braid \[options\] \[command\] \[file\]\n/);
    for (const option of [
      "-g, --genkey",
      "-a, --apireq <file>",
      "-u, --unsigned <file>",
      "--hash <algorithm>",
      "add-sig",
      "combine-sigs",
      "sign",
    ]) {
      assert.ok(help.stdout.includes(option), option);
    }
  });

  it("generates a key pair that is a valid key file", () => {
    const { code, stdout, stderr } = braid(["-g"]);
    assert.equal(code, 0);
    assert.equal(stderr, "");
    assert.match(stdout, /^public: [0-9a-f]{64}\nsecret: [0-9a-f]{64}\n$/);
    const key = parseKeyFile(stdout, "generated");
    assert.equal(stdout.slice(8, 72), key.publicHex);
  });
});

describe("braid -a", () => {
  file("req.yaml", REQUEST);

  it("prints the /send body with a fixed cmd and its Blake2s-256 hash by default", () => {
    const { code, stdout, stderr } = braid(["-a", "req.yaml"]);
    assert.equal(stderr, "");
    assert.equal(code, 0);
    const body = JSON.parse(stdout);
    assert.deepEqual(Object.keys(body), ["cmds"]);
    assert.equal(body.cmds[0].cmd, EXPECTED_CMD);
    assert.equal(body.cmds[0].hash, "xE5Pn6IkciW4cVtNsb9f9SF9TTPKzv5gq627ik81Shg");
    const verified = parseCommand(body.cmds[0]);
    assert.equal(verified.ok && verified.command.hashAlgorithm, "blake2s");
    assert.equal(
      stdout,
      `{"cmds":[${JSON.stringify({ hash: body.cmds[0].hash, sigs: body.cmds[0].sigs, cmd: EXPECTED_CMD })}]}\n`,
    );
  });

  it("keeps a creation time left out at 0 and warns on stderr that nodes refuse it", () => {
    file("no-time.yaml", REQUEST.replace("  creationTime: 1700000000\n", ""));
    const before = Math.floor(Date.now() / 1000);
    const { code, stdout, stderr } = braid(["-a", "no-time.yaml"]);
    assert.equal(code, 0);
    assert.equal(
      JSON.parse(JSON.parse(stdout).cmds[0].cmd).meta.creationTime,
      0,
      "the spec's default stays",
    );
    const shown = /e\.g\. (\d+) /.exec(stderr);
    assert.ok(shown !== null && Number(shown[1]) >= before, stderr);
    assert.equal(
      stderr,
      `braid: publicMeta.creationTime is 0 (the spec's default when left out): send, and local with preflight, refuse the command as expired ("Transaction time-to-live is expired"); set creationTime to the time now in seconds, e.g. ${shown[1]} (in JavaScript Math.floor(Date.now() / 1000), in a shell $(date +%s))\n`,
    );
  });

  it("with -l and --hash blake2b (options after the file) prints the bare command", () => {
    const { code, stdout } = braid(["-a", "req.yaml", "--hash", "blake2b", "-l"]);
    assert.equal(code, 0);
    const command = JSON.parse(stdout);
    assert.deepEqual(Object.keys(command), ["hash", "sigs", "cmd"]);
    assert.equal(command.cmd, EXPECTED_CMD);
    assert.equal(command.hash, "hBzT_RgZ89dYg5lwjP-i3O-fMMdd0NdtmrsvUebqJmE");
    const verified = parseCommand(command);
    assert.equal(verified.ok && verified.command.hashAlgorithm, "blake2b");
  });
});

describe("braid -u, add-sig, combine-sigs", () => {
  file(
    "unsigned.yaml",
    `code: (+ 1 2)\nsigners:\n  - public: ${ALICE}\n  - public: ${BOB}\n    caps: [{name: coin.GAS, args: []}]\nnonce: n-2\nnetworkId: testnet04\npublicMeta: {chainId: "1", sender: bob, gasLimit: 10, gasPrice: 0.1, ttl: 60, creationTime: 1700000001}\n`,
  );
  const cmd = `{"networkId":"testnet04","payload":{"exec":{"data":null,"code":"(+ 1 2)"}},"signers":[{"pubKey":"${ALICE}"},{"pubKey":"${BOB}","clist":[{"name":"coin.GAS","args":[]}]}],"meta":{"creationTime":1700000001,"ttl":60,"gasLimit":10,"chainId":"1","gasPrice":0.1,"sender":"bob"},"nonce":"n-2"}`;

  it("round trips to a command that verifies; -u prints JSON, add-sig reads it", () => {
    const unsigned = braid(["-u", "unsigned.yaml"]);
    assert.equal(unsigned.code, 0);
    assert.equal(unsigned.stderr, "");
    const sigData = parseSigData(unsigned.stdout, "stdout");
    assert.equal(sigData.cmd, cmd);
    assert.equal(
      unsigned.stdout,
      `{"hash":"${sigData.hash}","sigs":{"${ALICE}":null,"${BOB}":null},"cmd":${JSON.stringify(cmd)}}\n`,
    );

    // Alice signs first: still missing Bob's signature, so it is signing data again (YAML).
    const byAlice = braid(["add-sig", "alice.yaml"], unsigned.stdout);
    assert.equal(byAlice.code, 0);
    assert.match(
      byAlice.stdout,
      new RegExp(
        `^hash: ${sigData.hash}\nsigs:\n  ${ALICE}: [0-9a-f]{128}\n  ${BOB}: null\ncmd: '`,
      ),
    );
    file("by-alice.yaml", byAlice.stdout);

    // Bob signs the unsigned data on his own; combining both completes the command.
    const byBob = braid(["add-sig", "bob.yaml"], unsigned.stdout);
    file("by-bob.yaml", byBob.stdout);
    const combined = braid(["combine-sigs", "by-alice.yaml", "by-bob.yaml"]);
    assert.equal(combined.stderr, "");
    assert.equal(combined.code, 0);
    const body = JSON.parse(combined.stdout);
    const result = parseCommand(body.cmds[0]);
    assert.equal(result.ok, true);
    assert.equal(body.cmds[0].cmd, cmd);

    // Both keys at once, bare command with -l.
    const both = braid(["add-sig", "-l", "alice.yaml", "bob.yaml"], unsigned.stdout);
    assert.equal(both.stdout, `${JSON.stringify(body.cmds[0])}\n`);
  });

  it("-u takes keyPairs: their public keys sign, their secrets are unused with one warning", () => {
    // The request -a signs, read by -u: the same command once add-sig has signed it.
    const unsigned = braid(["-u", "req.yaml"]);
    assert.equal(unsigned.code, 0);
    assert.equal(
      unsigned.stderr,
      "braid: warning: the secret key of keyPairs[0] in req.yaml is not used: -u signs nothing (sign with braid add-sig)\n",
    );
    assert.equal(parseSigData(unsigned.stdout, "stdout").cmd, EXPECTED_CMD);
    const signed = braid(["add-sig", "alice.yaml"], unsigned.stdout);
    assert.equal(signed.stderr, "");
    assert.equal(signed.stdout, braid(["-a", "req.yaml"]).stdout);
    // An entry without a secret is not named; several unused secrets make one line.
    file(
      "some-secrets.yaml",
      `code: (+ 1 2)\nkeyPairs:\n  - public: ${ALICE}\n  - public: ${BOB}\n    secret: ${BOB_SECRET}\n  - public: ${BOB}\n    secret: ${BOB_SECRET}\nnonce: n-3\n`,
    );
    const two = braid(["-u", "some-secrets.yaml"]);
    assert.equal(
      two.stderr,
      "braid: warning: the secret keys of keyPairs[1], keyPairs[2] in some-secrets.yaml are not used: -u signs nothing (sign with braid add-sig)\n",
    );
    assert.deepEqual(
      parseSigData(two.stdout, "stdout").sigs.map((e) => e.pubKey),
      [ALICE, BOB],
    );
  });

  it("signs a hash read from standard input", () => {
    const hash = "Gz4w71eAhXolTE9Ka7hk7PzJG7mcsq8hT6HyzmzpwNA";
    assert.deepEqual(braid(["sign", "alice.yaml"], `${hash}\n`), {
      code: 0,
      stdout: `${ALICE}: 14291c6100b263302b9d7731dc1127a4860e859ef6d91442a6e77d7bb8981d6ce9ad0902b59b6d2509b08547b215e5f313c8f2d422b9e8f82f33e23c71165609\n`,
      stderr: "",
    });
  });

  it("signs base64url data of any length, each signature the one Node's own ED25519 gives", () => {
    // The key from its seed as Node's crypto takes it: PKCS#8's fixed prefix for an ED25519 seed.
    const alice = createPrivateKey({
      key: Buffer.from(`302e020100300506032b657004220420${ALICE_SECRET}`, "hex"),
      format: "der",
      type: "pkcs8",
    });
    for (const data of [Buffer.alloc(0), Buffer.from("hello"), Buffer.alloc(100, 7)]) {
      const expected = cryptoSign(null, data, alice).toString("hex");
      assert.deepEqual(
        braid(["sign", "alice.yaml"], `${data.toString("base64url")}\n`),
        { code: 0, stdout: `${ALICE}: ${expected}\n`, stderr: "" },
        `${data.length} bytes`,
      );
    }
    assertUserError(
      ["sign", "alice.yaml"],
      'standard input: data "a+b/" is not base64url: invalid base64url: character "+" is not in the alphabet A-Z a-z 0-9 - _',
      "a+b/\n",
    );
  });

  it("fails verification with the reason and exit 1", () => {
    const unsigned = braid(["-u", "unsigned.yaml"]).stdout;
    const tampered = unsigned.replace('\\"gasLimit\\":10', '\\"gasLimit\\":99');
    assert.notEqual(tampered, unsigned);
    assertUserError(
      ["add-sig", "alice.yaml"],
      `command verification failed: hash ${parseSigData(unsigned, "x").hash} is not the hash of cmd (neither Blake2s-256 nor Blake2b-256)`,
      tampered,
    );
  });
});

describe("braid user errors are one line on stderr", () => {
  file("bad.yaml", "code: [\n");
  file("unknown.yaml", "code: x\nfoo: 1\n");
  file("mismatch.yaml", `code: x\nkeyPairs:\n  - public: ${BOB}\n    secret: ${ALICE_SECRET}\n`);
  file("nonhex.yaml", "code: x\nkeyPairs:\n  - secret: not-hex\n");
  file("nonhex-key.yaml", "secret: zz\n");

  it("missing file", () =>
    assertUserError(["-a", "nope.yaml"], "cannot read nope.yaml: no such file"));
  it("bad YAML", () =>
    assertUserError(
      ["-a", "bad.yaml"],
      "bad.yaml: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1",
    ));
  it("unknown key", () =>
    assertUserError(
      ["-u", "unknown.yaml"],
      'unknown.yaml: unknown key "foo" in an exec request; valid keys are: type, data, dataFile, keyPairs, signers, verifiers, nonce, networkId, publicMeta, code, codeFile',
    ));
  it("mismatched secret", () =>
    assertUserError(
      ["-a", "mismatch.yaml"],
      `mismatch.yaml: keyPairs[0].public ${BOB} does not match the secret key, whose public key is ${ALICE}`,
    ));
  it("non-hex keys", () => {
    assertUserError(
      ["-a", "nonhex.yaml"],
      'nonhex.yaml: keyPairs[0].secret is not hexadecimal: "not-hex"',
    );
    assertUserError(
      ["sign", "nonhex-key.yaml"],
      'nonhex-key.yaml: secret is not hexadecimal: "zz"',
      "x",
    );
  });
  it("bad options", () => {
    assertUserError(["-x"], "unknown option '-x'");
    assertUserError(
      ["-l"],
      "-l/--local is only used with -a/--apireq (or after add-sig/combine-sigs)",
    );
    assertUserError(
      ["-g", "-a", "req.yaml"],
      "-g/--genkey and -a/--apireq cannot be used together",
    );
    assertUserError(
      ["-a", "req.yaml", "--hash", "md5"],
      "option '--hash <algorithm>' argument 'md5' is invalid. Allowed choices are blake2s, blake2b.",
    );
    assertUserError(["add-sig"], "missing required argument 'keyfiles'");
  });
});

describe("braid header inspect", () => {
  // Mainnet chain 0 at height 1,000,000 (../shared/vectors/mainnet-headers.json).
  const MAINNET_1000000 =
    "AAAAAAAAAABRoiLHW7EFAB2lwAatTykipYZ3CZNPzLe-f5S-zUt8COtu0H12f_OZAwAFAAAAMpic85rur2MYf3zli8s8bHxTFjriFoMPTr6ZPs8sjxMKAAAAVBKuhU_hQmuvKlx88A5o-FH0rzNo59NsdxmOGNBQ-ycPAAAAMItdqgHZxf7j6l0oE8X-G9-VyMbnQmZrtSniuRe_EJ9CtyxsSb7daPIIYAaXMgSEsQ3dkxY5GjJjLwAAAAAAABqWlmx5B6wo0YWPIShNKmdVrAQWht2P85BS1drGLpkAAAAAADUJ-ARn7blgHgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQEIPAAAAAAAFAAAA-na5gFuxBQAFL-3CY4YuAJNGp9KhDkbrKkIPWYyq8WvtAaNPoUFWC16louSx8YN5";

  it("decodes a header given as base64url and verifies its hash and proof of work", () => {
    const { code, stdout, stderr } = braid(["header", "inspect", MAINNET_1000000]);
    assert.equal(stderr, "");
    assert.equal(code, 0);
    const report = JSON.parse(stdout);
    assert.equal(report.header.height, 1000000);
    assert.equal(report.computedHash, "k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k");
    assert.equal(report.hashVerifies, true);
    assert.equal(
      report.powHash,
      "00000000000018080775e8eae2fbd2053efcb410a3255c9bfcbaf7f9baa072d9",
    );
    assert.equal(report.powVerifies, true);
  });

  it("reads the header from a file", () => {
    const { code, stdout } = braid(["header", "inspect", file("h.txt", `${MAINNET_1000000}\n`)]);
    assert.equal(code, 0);
    assert.equal(JSON.parse(stdout).hashVerifies, true);
  });

  it("rejects a value that is not a header in one line", () =>
    assertUserError(
      ["header", "inspect", "AAAA"],
      "cannot read a block header from the argument: a block header is 318 bytes, got 3",
    ));
});

describe("braid on hostile input files", () => {
  it("escapes terminal control characters in messages quoting a file", () => {
    writeFileSync(join(dir, "esc.yaml"), "port: 0\nhost: [\u001b[31mX\n  : : \n");
    assertUserError(
      ["-s", "esc.yaml"],
      "esc.yaml: invalid YAML: Missing , or : between flow sequence items at line 2, column 9: host: [\\u001b[31mX ^ ",
    );
    writeFileSync(join(dir, "esc.repl"), "(+ 1 2)\n(foo \u001b]0;title\u0007 bar\n");
    const run = braid(["esc.repl"]);
    assert.equal(run.code, 1);
    assert.doesNotMatch(run.stdout + run.stderr, /[\u001b\u0007]/);
    assert.match(run.stderr, /\(foo \\u001b\]0;title\\u0007 bar/);
  });

  it("refuses files above the input size limit and files that are not UTF-8", () => {
    writeFileSync(join(dir, "big.yaml"), `code: "${"1".repeat(4_194_304)}"\n`);
    assertUserError(
      ["-a", "big.yaml"],
      "cannot read big.yaml: it is larger than the limit of 4194304 bytes (4194313 bytes)",
    );
    writeFileSync(
      join(dir, "latin1.repl"),
      Buffer.from([0x28, 0x2b, 0x20, 0x31, 0x29, 0x0a, 0xe9]),
    );
    assertUserError(["latin1.repl"], "cannot read latin1.repl: it is not valid UTF-8 (line 2)");
  });
});
