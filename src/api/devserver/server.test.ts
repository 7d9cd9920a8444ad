/**
 * The development server for real: started on a free port and driven over HTTP by @kadena/client
 * (Blake2b-256 hashes, the devnet sender00 key) and by commands built with `braid -a`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  addSignatures,
  createClient,
  createSignWithKeypair,
  type ICommand,
  type IUnsignedCommand,
  Pact,
} from "@kadena/client";
import { type CliIO, readTextFile } from "../../cli/io.ts";
import { runCli } from "../../cli/run.ts";
import { signCommand } from "../../command/index.ts";
import {
  type Assertion,
  SoftwareAuthenticator,
  signatureText,
} from "../../command/test-support/authenticator.ts";
import { decodeBase64Url } from "../../crypto/index.ts";
import type { LogSink } from "../http/access-log.ts";
import { parseDevServerConfig } from "./config.ts";
import { type RunningDevServer, startDevServer } from "./server.ts";

// The well-known devnet sender00 key pair.
const PUBLIC = "368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca";
const SECRET = "251a920c403ae8c8f65f59142316af3c82b631fba46ddea92ee8c95035bd2898";
const signWithSender00 = createSignWithKeypair({ publicKey: PUBLIC, secretKey: SECRET });

const dir = mkdtempSync(join(tmpdir(), "braid-devserver-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A server with the given extra configuration lines; its log lines are kept in `lines`. */
async function serve(configLines = "", lines: string[] = []): Promise<RunningDevServer> {
  const log: LogSink = { line: (text) => lines.push(text), close: async () => {} };
  const config = parseDevServerConfig(`port: 0\n${configLines}`, join(dir, "config.yaml"));
  return startDevServer(config, { log });
}

function unsigned(code: string, nonce: string): IUnsignedCommand {
  return Pact.builder
    .execution(code)
    .addSigner(PUBLIC)
    .setMeta({ chainId: "0", senderAccount: "sender00" })
    .setNetworkId("development")
    .setNonce(nonce)
    .createTransaction();
}

async function signed(code: string, nonce: string): Promise<ICommand> {
  return (await signWithSender00(unsigned(code, nonce))) as ICommand;
}

const descriptor = (requestKey: string) => ({
  requestKey,
  chainId: "0" as const,
  networkId: "development",
});

async function post(
  server: RunningDevServer,
  path: string,
  body: string,
  type = "application/json",
) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": type },
    body,
  });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    text: await response.text(),
  };
}

/** Runs `braid ARGS` in-process and returns its standard output. */
/**
 * What `braid` prints for `args`; it may warn only that the request leaves creationTime at 0 (the
 * development server does not check a command's time).
 */
async function braid(args: string[]): Promise<string> {
  let out = "";
  const io: CliIO = {
    out: (text) => {
      out += text;
    },
    warn: (line) => {
      if (!line.startsWith("publicMeta.creationTime is 0")) assert.fail(`braid warned: ${line}`);
    },
    readStdin: async () => "",
    readFile: readTextFile,
  };
  assert.equal(await runCli(args, io), 0);
  return out;
}

const COUNTER = `(module counter GOV
  (defcap GOV () true)
  (defun double:integer (x:integer) (* x 2))
  (defun checked:integer (x:integer) (enforce (> x 0) "must be positive") x))`;

describe("the development server driven by @kadena/client", () => {
  let server: RunningDevServer;
  let client: ReturnType<typeof createClient>;
  before(async () => {
    server = await serve();
    client = createClient(server.url);
  });
  after(() => server.close());

  it("deploys a module, calls it and answers poll and listen", async () => {
    const deploy = await client.submit(await signed(COUNTER, "deploy"));
    const deployed = await client.listen(deploy);
    assert.equal(deployed.result.status, "success");
    assert.match(
      String((deployed.result as { data: unknown }).data),
      /^Loaded module counter, hash [A-Za-z0-9_-]{43}$/,
    );
    assert.equal(deployed.txId, 0);

    const call = await signed("(counter.double 21)", "call");
    const sent = await client.submit(call);
    assert.equal(sent.requestKey, call.hash);
    const polled = await client.getStatus(sent);
    assert.deepEqual(Object.keys(polled), [call.hash]);
    assert.deepEqual(polled[call.hash], {
      gas: 0,
      result: { status: "success", data: { int: 42 } },
      reqKey: call.hash,
      logs: "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g",
      metaData: null,
      continuation: null,
      txId: 1,
    });
    assert.deepEqual(await client.getStatus(descriptor("A".repeat(43))), {});
  });

  it("trusts a command's verifiers: enforce-verifier sees the capabilities they grant", async () => {
    const module = `(module verified G (defcap G () true)
      (defcap MINT (n:integer) (enforce-verifier "bridge"))
      (defun mint (n:integer) (with-capability (MINT n) n)))`;
    assert.equal(
      (await client.listen(await client.submit(await signed(module, "v-deploy")))).result.status,
      "success",
    );
    const withVerifier = (n: number, nonce: string) =>
      Pact.builder
        .execution(`(verified.mint ${n})`)
        .addSigner(PUBLIC)
        .addVerifier({ name: "bridge", proof: "not checked here" }, (grant) => [
          grant("verified.MINT", { int: 5 }),
        ])
        .setMeta({ chainId: "0", senderAccount: "sender00" })
        .setNetworkId("development")
        .setNonce(nonce)
        .createTransaction();
    const granted = await client.listen(
      await client.submit((await signWithSender00(withVerifier(5, "v-5"))) as ICommand),
    );
    assert.deepEqual(granted.result, { status: "success", data: { int: 5 } });
    const other = await client.listen(
      await client.submit((await signWithSender00(withVerifier(6, "v-6"))) as ICommand),
    );
    assert.equal(
      (other.result as { error: { message: string } }).error.message,
      "Verifier bridge failed with the message: not in scope",
    );
  });

  it("holds a listen call until the result exists", async () => {
    const command = await signed("(+ 40 2)", "late");
    let answered = false;
    const listening = client.listen(descriptor(command.hash)).then((result) => {
      answered = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(answered, false, "listen answered before the command was sent");
    await client.submit(command);
    const result = await listening;
    assert.deepEqual(result.result, { status: "success", data: { int: 42 } });
    assert.equal(result.reqKey, command.hash);
  });

  it("runs local commands without keeping their writes or their results", async () => {
    const local = await signed("(module scratch G (defcap G () true) (defun one () 1))", "local");
    const result = await client.local(local, { preflight: false, signatureVerification: true });
    assert.equal(result.result.status, "success");
    assert.equal(result.txId, null);
    assert.deepEqual(await client.getStatus(descriptor(local.hash)), {});
    const after = await client.local(await signed("(scratch.one)", "after-local"), {
      preflight: false,
      signatureVerification: true,
    });
    assert.equal(after.result.status, "failure", "the module deployed by local is gone");
  });

  it("answers a preflight local in the preflight form, and a dirty read unsigned", async () => {
    const preflight = await client.local(await signed("(counter.double 4)", "preflight"), {
      preflight: true,
      signatureVerification: true,
    });
    assert.deepEqual(preflight.result, { status: "success", data: { int: 8 } });
    assert.deepEqual(preflight.preflightWarnings, []);
    const dirty = await client.dirtyRead(unsigned("(counter.double 5)", "dirty"));
    assert.deepEqual(dirty.result, { status: "success", data: { int: 10 } });
  });

  it("records a failing command's failure with its message, logs the hash of no writes", async () => {
    const failing = await signed("(counter.checked 0)", "failing");
    await client.submit(failing);
    const result = await client.listen(descriptor(failing.hash));
    assert.equal(result.result.status, "failure");
    const error = (result.result as { error: Record<string, unknown> }).error;
    assert.deepEqual(
      { type: error.type, message: error.message, callStack: error.callStack },
      { type: "TxFailure", message: "must be positive", callStack: [] },
    );
    assert.match(String(error.info), /^counter\.checked\.\{[A-Za-z0-9_-]{43}\}:3$/);
    assert.equal(result.logs, "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g");
    assert.equal(result.txId, null);
  });

  it("refuses a request key already submitted, and the same key twice in one batch", async () => {
    const once = await signed("(+ 1 1)", "once");
    await client.submit(once);
    await assert.rejects(client.submit(once), {
      message: `Request key: ${once.hash} has already been submitted. If you are resubmitting a valid transaction, try changing the nonce in the payload`,
    });
    const twice = await signed("(+ 2 2)", "twice");
    await assert.rejects(client.submit([twice, twice]), /has already been submitted/);
    assert.deepEqual(
      await client.getStatus(descriptor(twice.hash)),
      {},
      "nothing of the batch ran",
    );
  });

  it("runs the commands `braid -a` builds, on send and (with -l) on local", async () => {
    const request = join(dir, "request.yaml");
    writeFileSync(
      request,
      `code: (counter.double (read-integer 'n))\ndata: {n: {int: 7}}\nnonce: from-braid\nkeyPairs:\n  - public: ${PUBLIC}\n    secret: ${SECRET}\n`,
    );
    const batch = await braid(["-a", request]);
    const sent = await post(server, "/api/v1/send", batch);
    assert.equal(sent.status, 200);
    const [key] = JSON.parse(sent.text).requestKeys as string[];
    assert.equal(key, JSON.parse(batch).cmds[0].hash);
    const result = await client.listen(descriptor(key as string));
    assert.deepEqual(result.result, { status: "success", data: { int: 14 } });

    const local = await post(server, "/api/v1/local", await braid(["-a", request, "-l"]));
    assert.equal(local.status, 200);
    assert.equal(
      local.text,
      `{"gas":0,"result":{"status":"success","data":{"int":14}},"reqKey":"${key}","logs":"DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g","metaData":null,"continuation":null,"txId":null}`,
    );
  });
});

describe("the development server's refusals", () => {
  let server: RunningDevServer;
  before(async () => {
    server = await serve("bodyLimit: 2000\n");
  });
  after(() => server.close());

  const plain = (status: number, text: string) => ({
    status,
    type: "text/plain; charset=utf-8",
    text,
  });

  it("refuses bodies that are not JSON, malformed, empty or too large with a plain-text 400", async () => {
    assert.deepEqual(
      await post(server, "/api/v1/send", '{"cmds":[]}', "text/plain"),
      plain(400, 'Content-Type must be application/json, got "text/plain"'),
    );
    assert.deepEqual(
      await post(server, "/api/v1/send", '{"cmds":['),
      plain(400, "malformed JSON in the request body: Unexpected end of JSON input"),
    );
    assert.deepEqual(
      await post(server, "/api/v1/send", '{"cmds":[]}'),
      plain(400, '"cmds" is empty: send at least one command'),
    );
    assert.deepEqual(
      await post(server, "/api/v1/send", ""),
      plain(400, "the request body is empty: expected JSON"),
    );
    assert.deepEqual(
      await post(server, "/api/v1/local", `{"cmd":"${"x".repeat(2000)}"}`),
      plain(400, "the request body is larger than the limit of 2000 bytes"),
    );
    assert.deepEqual(
      await post(server, "/api/v1/poll", '{"requestKeys":["short"]}'),
      plain(
        400,
        'requestKeys[0] must be a request key (43 characters of unpadded base64url encoding 32 bytes), got the string "short": it has 5 characters, not 43',
      ),
    );
  });

  it("refuses a batch with an invalid command before running any", async () => {
    const good = await signed("(+ 1 2)", "good");
    const bad = { ...(await signed("(+ 1 2)", "bad")), sigs: [{ sig: "00".repeat(64) }] };
    const response = await post(server, "/api/v1/send", JSON.stringify({ cmds: [good, bad] }));
    assert.deepEqual(
      response,
      plain(
        400,
        "command 1 is invalid: sigs[0]: invalid signature for signer 0 (368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca)",
      ),
    );
    const poll = await post(server, "/api/v1/poll", JSON.stringify({ requestKeys: [good.hash] }));
    assert.equal(poll.text, "{}");
  });

  it("names the first invalid command of a batch, though a later one fails sooner", async () => {
    const good = await signed("(+ 1 2)", "good first");
    const badSig = { ...(await signed("(+ 1 2)", "bad sig")), sigs: [{ sig: "00".repeat(64) }] };
    // Refused while parsing, before any signature is checked.
    const badHash = { ...(await signed("(+ 1 2)", "bad hash")), hash: "short" };
    const response = await post(
      server,
      "/api/v1/send",
      JSON.stringify({ cmds: [good, badSig, badHash] }),
    );
    assert.equal(response.status, 400);
    assert.match(response.text, /^command 1 is invalid: sigs\[0\]: invalid signature for signer 0/);
  });

  it("answers unknown paths with 404, a known one's wrong method with 405", async () => {
    assert.deepEqual(
      await post(server, "/api/v1/nothing", "{}"),
      plain(404, "no such endpoint: POST /api/v1/nothing"),
    );
    const get = await fetch(`${server.url}/api/v1/send`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("allow"), "POST");
    assert.equal(await get.text(), "method GET is not allowed on /api/v1/send; it takes POST");
  });
});

describe("the development server with a passkey (WebAuthn) signer", () => {
  let server: RunningDevServer;
  let client: ReturnType<typeof createClient>;
  before(async () => {
    server = await serve();
    client = createClient(server.url);
  });
  after(() => server.close());

  const passkey = new SoftwareAuthenticator("ES256");
  const CODE = '[(enforce-keyset (read-keyset "ks")) (create-principal (read-keyset "ks"))]';

  /** @kadena/client's command for CODE, the passkey its signer, and the passkey's assertion. */
  function passkeySigned(nonce: string, change: (a: Assertion) => Assertion = (a) => a) {
    const transaction = Pact.builder
      .execution(CODE)
      .addData("ks", { keys: [passkey.publicKey], pred: "keys-all" })
      .addSigner(passkey.publicKey)
      .setMeta({ chainId: "0", senderAccount: "sender00" })
      .setNetworkId("development")
      .setNonce(nonce)
      .createTransaction();
    const assertion = change(passkey.assert(decodeBase64Url(transaction.hash)));
    const sig = { sig: signatureText(assertion), pubKey: passkey.publicKey };
    return addSignatures(transaction, sig) as ICommand;
  }

  it("accepts the command on send, runs it and answers poll", async () => {
    const command = passkeySigned("passkey");
    assert.match(command.cmd, /"scheme":"WebAuthn"/);
    const sent = await client.submit(command);
    assert.equal(sent.requestKey, command.hash);
    const result = await client.pollOne(sent);
    assert.equal(result.result.status, "success");
    const [enforced, principal] = (result.result as { data: unknown }).data as [boolean, string];
    assert.equal(enforced, true);
    // A keyset of one WebAuthn key is a w: principal (k: is for ED25519 keys only).
    assert.match(principal, /^w:[A-Za-z0-9_-]{43}:keys-all$/);
  });

  it("refuses it with its own message when one byte of the authenticator data changes", async () => {
    const command = passkeySigned("changed", (a) => {
      const authenticatorData = Uint8Array.from(a.authenticatorData);
      authenticatorData[32]! ^= 0x04; // the user-verified flag
      return { ...a, authenticatorData };
    });
    const response = await post(server, "/api/v1/send", JSON.stringify({ cmds: [command] }));
    assert.deepEqual(response, {
      status: 400,
      type: "text/plain; charset=utf-8",
      text: `command 0 is invalid: sigs[0]: invalid WebAuthn signature for signer 0 (${passkey.publicKey.slice(0, 67)}...): the authenticator's signature does not verify with its key`,
    });
    const poll = await post(
      server,
      "/api/v1/poll",
      JSON.stringify({ requestKeys: [command.hash] }),
    );
    assert.equal(poll.text, "{}");
  });
});

/** A command with private metadata, hashed with Blake2s-256 (Braid's own). */
function privateCommand(code: string, from: string, to: string[]): string {
  const cmd = JSON.stringify({
    payload: { exec: { code, data: null } },
    meta: { address: { from, to } },
    signers: [],
    networkId: null,
    nonce: `${from}->${to.join(",")}`,
  });
  return JSON.stringify(signCommand(cmd, [], "blake2s"));
}

describe("the development server's other endpoints", () => {
  let server: RunningDevServer;
  const lines: string[] = [];
  before(async () => {
    server = await serve("entity: bank\nverbose: true\nlistenTimeout: 0.3\n", lines);
  });
  after(() => server.close());

  it("runs a private command addressed to its entity, and records one that is not", async () => {
    const addressed = privateCommand("(+ 1 2)", "alice", ["bank", "carol"]);
    const elsewhere = privateCommand("(+ 1 2)", "alice", ["carol"]);
    const keys = [JSON.parse(addressed).hash, JSON.parse(elsewhere).hash];
    for (const [i, body] of [addressed, elsewhere].entries()) {
      const response = await post(server, "/api/v1/private", body);
      assert.deepEqual(response, {
        status: 200,
        type: "application/json; charset=utf-8",
        text: `{"requestKeys":["${keys[i]}"]}`,
      });
    }
    const polled = JSON.parse(
      (await post(server, "/api/v1/poll", JSON.stringify({ requestKeys: keys }))).text,
    );
    assert.deepEqual(polled[keys[0]].result, { status: "success", data: { int: 3 } });
    assert.deepEqual(polled[keys[1]].result, {
      status: "failure",
      error: {
        callStack: [],
        type: "EvalError",
        message:
          'Private command not addressed to this entity "bank": sent from "alice" to ["carol"]',
        info: "<toplevel>:0",
      },
    });
    const publicCommand = JSON.stringify(await signed("(+ 1 2)", "public-on-private"));
    assert.equal(
      (await post(server, "/api/v1/private", publicCommand)).text,
      'the command needs private metadata {"address": {"from": entity, "to": [entity, …]}} in cmd.meta',
    );
    assert.equal(
      (await post(server, "/api/v1/send", `{"cmds":[${addressed}]}`)).text,
      "command 0 has private metadata: submit it to /api/v1/private",
    );
  });

  it("answers listen with a time-out after the configured wait", async () => {
    const started = Date.now();
    const response = await post(
      server,
      "/api/v1/listen",
      JSON.stringify({ listen: `${"B".repeat(42)}A` }),
    );
    assert.deepEqual(response, {
      status: 200,
      type: "application/json; charset=utf-8",
      text: '{"status":"timeout","timeout-micros":300000}',
    });
    assert.ok(Date.now() - started >= 290);
  });

  it("stops waiting for a listen call whose client went away", async () => {
    const patient = await serve("listenTimeout: 600\n");
    try {
      const gone = new AbortController();
      const listening = fetch(`${patient.url}/api/v1/listen`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ listen: `${"C".repeat(42)}A` }),
        signal: gone.signal,
      }).catch((e: Error) => e.name);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(patient.service.listeners, 1);
      gone.abort();
      assert.equal(await listening, "AbortError");
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(patient.service.listeners, 0);
    } finally {
      await patient.close();
    }
  });

  it("reports on a command and on contract code with verify", async () => {
    const command = await signed("(+ 1 2)", "verify");
    const good = JSON.parse((await post(server, "/api/v1/verify", JSON.stringify(command))).text);
    assert.deepEqual(good, {
      valid: true,
      kind: "command",
      requestKey: command.hash,
      checks: [
        { check: "json", outcome: "passed", detail: "the body is JSON" },
        {
          check: "format",
          outcome: "passed",
          detail: "cmd, hash and sigs are well formed, and so is the payload in cmd",
        },
        {
          check: "hash",
          outcome: "passed",
          detail:
            "the hash is the Blake2b-256 hash of cmd (accepted; this server's own is Blake2s-256)",
        },
        { check: "signatures", outcome: "passed", detail: "1 valid signature, one per signer" },
        { check: "parse", outcome: "passed", detail: "1 top-level form" },
        { check: "compile", outcome: "passed", detail: "no module or interface to compile" },
      ],
    });
    const code = JSON.parse(
      (
        await post(
          server,
          "/api/v1/verify",
          JSON.stringify({ code: "(module m G (defcap G () true) (defun f () (g)))" }),
        )
      ).text,
    );
    assert.equal(code.valid, false);
    assert.deepEqual(code.checks.at(-1), {
      check: "compile",
      outcome: "failed",
      detail: code.checks.at(-1).detail,
    });
    assert.match(code.checks.at(-1).detail, /\bg\b/);
    const malformed = JSON.parse((await post(server, "/api/v1/verify", "{nope")).text);
    assert.deepEqual(
      malformed.checks.map((c: { check: string; outcome: string }) => `${c.check}:${c.outcome}`),
      ["json:failed", "format:skipped"],
    );
  });

  it("answers CORS preflight requests and GET /version", async () => {
    const preflight = await fetch(`${server.url}/api/v1/send`, {
      method: "OPTIONS",
      headers: { origin: "http://example.org", "access-control-request-method": "POST" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
    assert.equal(preflight.headers.get("access-control-allow-methods"), "GET, POST, OPTIONS");
    assert.equal(
      preflight.headers.get("access-control-allow-headers"),
      "content-type, authorization",
    );
    const version = await fetch(`${server.url}/version`);
    assert.equal(version.headers.get("access-control-allow-origin"), "*");
    assert.equal(await version.text(), "pact version 5.4");
  });

  it("logs one access line per request and, verbose, each command's key, outcome and gas", async () => {
    lines.length = 0;
    const command = await signed('(enforce false "no")', "logged");
    await post(server, "/api/v1/send", JSON.stringify({ cmds: [command] }));
    assert.equal(lines.length, 2);
    assert.equal(lines[0], `command ${command.hash} failure gas 0: TxFailure: no`);
    assert.match(
      lines[1] ?? "",
      /^127\.0\.0\.1 - - \[\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d \+0000\] "POST \/api\/v1\/send HTTP\/1\.1" 200 63 \d+\.\dms$/,
    );
  });
});

describe("the development server with persistDir", () => {
  it("answers poll for earlier keys and keeps the contract state after a restart", async () => {
    const persistDir = join(dir, "state");
    const first = await serve(`persistDir: ${persistDir}\n`);
    const client = createClient(first.url);
    const deploy = await signed(COUNTER, "persisted-deploy");
    await client.submit(deploy);
    const call = await signed("(counter.double 50)", "persisted-call");
    await client.submit(call);
    const before = await post(
      first,
      "/api/v1/poll",
      JSON.stringify({ requestKeys: [deploy.hash, call.hash] }),
    );
    await first.close();

    const second = await serve(`persistDir: ${persistDir}\n`);
    try {
      const after = await post(
        second,
        "/api/v1/poll",
        JSON.stringify({ requestKeys: [deploy.hash, call.hash] }),
      );
      assert.equal(after.text, before.text);
      const again = await createClient(second.url).local(
        await signed("(counter.double 8)", "restarted"),
        {
          preflight: false,
          signatureVerification: true,
        },
      );
      assert.deepEqual(again.result, { status: "success", data: { int: 16 } });
      await assert.rejects(createClient(second.url).submit(call), /has already been submitted/);
      const next = await signed("(+ 1 1)", "after-restart");
      await createClient(second.url).submit(next);
      const result = JSON.parse(
        (await post(second, "/api/v1/poll", JSON.stringify({ requestKeys: [next.hash] }))).text,
      );
      assert.equal(result[next.hash].txId, 2, "transaction ids continue after the restart");
    } finally {
      await second.close();
    }
  });
});
