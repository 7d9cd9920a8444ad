/**
 * The development server against a hostile client (issue #9): replayed commands under another
 * spelling of their hash, deeply nested bodies, huge rejected values, commands that would run
 * without end or fill the memory.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createSignWithKeypair, type ICommand, Pact } from "@kadena/client";
import type { LogSink } from "../http/access-log.ts";
import { parseDevServerConfig } from "./config.ts";
import { type RunningDevServer, startDevServer } from "./server.ts";

// The well-known devnet sender00 key pair.
const PUBLIC = "368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca";
const SECRET = "251a920c403ae8c8f65f59142316af3c82b631fba46ddea92ee8c95035bd2898";
const signWithSender00 = createSignWithKeypair({ publicKey: PUBLIC, secretKey: SECRET });

async function signed(code: string, nonce: string, gasLimit?: number): Promise<ICommand> {
  const tx = Pact.builder
    .execution(code)
    .addSigner(PUBLIC)
    .setMeta({ chainId: "0", senderAccount: "sender00", ...(gasLimit ? { gasLimit } : {}) })
    .setNetworkId("development")
    .setNonce(nonce)
    .createTransaction();
  return (await signWithSender00(tx)) as ICommand;
}

async function post(server: RunningDevServer, path: string, body: string) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: response.status, text: await response.text() };
}

describe("the development server against a hostile client", () => {
  let server: RunningDevServer;
  before(async () => {
    const log: LogSink = { line: () => {}, close: async () => {} };
    const config = parseDevServerConfig("port: 0\nbodyLimit: 16777216\n", "/tmp/config.yaml");
    server = await startDevServer(config, { log });
  });
  after(() => server.close());

  it("refuses a command whose hash is padded, so it cannot be replayed under a second key", async () => {
    const command = await signed("(tx-hash)", "replay");
    const padded = { ...command, hash: `${command.hash}=` };
    const sent = await post(server, "/api/v1/send", JSON.stringify({ cmds: [command] }));
    assert.equal(sent.status, 200);
    const again = await post(server, "/api/v1/send", JSON.stringify({ cmds: [padded] }));
    assert.deepEqual(again, {
      status: 400,
      text: `command 0 is invalid: hash "${command.hash}=" must be 43 characters of unpadded base64url encoding 32 bytes, but it is padded with '=' (request keys are unpadded base64url)`,
    });
    const fresh = await signed("(tx-hash)", "replay-batch");
    const both = JSON.stringify({ cmds: [fresh, { ...fresh, hash: `${fresh.hash}=` }] });
    assert.equal((await post(server, "/api/v1/send", both)).status, 400);
    const polled = await post(
      server,
      "/api/v1/poll",
      JSON.stringify({ requestKeys: [command.hash, fresh.hash] }),
    );
    assert.deepEqual(Object.keys(JSON.parse(polled.text)), [command.hash], "only the first ran");
    assert.equal(JSON.parse(polled.text)[command.hash].result.data, command.hash);
    assert.deepEqual(
      await post(server, "/api/v1/listen", JSON.stringify({ listen: `${command.hash}=` })),
      {
        status: 400,
        text: `"listen" must be a request key (43 characters of unpadded base64url encoding 32 bytes), got the string "${command.hash}=": it is padded with '=' (request keys are unpadded base64url)`,
      },
    );
  });

  it("refuses request keys whose last character has trailing bits set", async () => {
    const key = `${"A".repeat(42)}B`;
    assert.deepEqual(await post(server, "/api/v1/poll", JSON.stringify({ requestKeys: [key] })), {
      status: 400,
      text: `requestKeys[0] must be a request key (43 characters of unpadded base64url encoding 32 bytes), got the string "${key}": trailing bits are not zero`,
    });
  });

  it("answers a body nested thousands deep with a 400, not a 500", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    assert.deepEqual(await post(server, "/api/v1/listen", `{"listen":${deep}}`), {
      status: 400,
      text: '"listen" must be a request key (43 characters of unpadded base64url encoding 32 bytes), got an array of 1 element(s)',
    });
    assert.deepEqual(await post(server, "/api/v1/poll", `{"requestKeys":[${deep}]}`), {
      status: 400,
      text: "requestKeys[0] must be a request key (43 characters of unpadded base64url encoding 32 bytes), got an array of 1 element(s)",
    });
    for (const path of ["send", "local", "private", "verify"]) {
      const response = await post(server, `/api/v1/${path}`, `{"cmds":[${deep}],"cmd":${deep}}`);
      assert.ok(response.status === 400 || response.status === 200, `${path}: ${response.status}`);
    }
  });

  it("quotes at most a short prefix of a rejected value", async () => {
    const huge = "k".repeat(10_000_000);
    const response = await post(server, "/api/v1/listen", JSON.stringify({ listen: huge }));
    assert.deepEqual(response, {
      status: 400,
      text: `"listen" must be a request key (43 characters of unpadded base64url encoding 32 bytes), got the string "${"k".repeat(64)}"… (10000000 characters): it has 10000000 characters, not 43`,
    });
    const command = { ...(await signed("1", "huge")), hash: huge };
    const sent = await post(server, "/api/v1/local", JSON.stringify(command));
    assert.equal(sent.status, 400);
    assert.ok(sent.text.length < 400, sent.text);
    const verified = await post(server, "/api/v1/verify", JSON.stringify(command));
    assert.ok(verified.text.length < 2000, `${verified.text.length}`);
  });

  it("bounds the work of one command, so the server keeps answering", async () => {
    const code = "(fold (lambda (a x) (fold (+) a (enumerate 1 30000))) 0 (enumerate 1 10000))";
    const command = await signed(code, "busy", 1_000_000_000);
    const started = performance.now();
    const [local, version] = await Promise.all([
      post(server, "/api/v1/local", JSON.stringify(command)),
      fetch(`${server.url}/version`).then((r) => r.text()),
    ]);
    assert.equal(version, "pact version 5.4");
    // Within the 2 s time limit for one command, the bytes it builds stop it.
    assert.equal(
      JSON.parse(local.text).result.error.message,
      "Command exceeded the limit of 33554432 bytes on the lists and strings it builds: 33680000 bytes",
    );
    // Unbounded, its 300,000,000 additions would take minutes; stopped, about a second of work
    // (more by the wall clock on a loaded machine).
    assert.ok(performance.now() - started < 10_000, `${performance.now() - started} ms`);
    const loop = await signed("(fold (+) 0 (enumerate 1 1000))", "own-limit", 50);
    const limited = await post(server, "/api/v1/local", JSON.stringify(loop));
    assert.equal(JSON.parse(limited.text).result.error.message, 'Gas limit "50" exceeded: 109');
  });

  it("stops a command at the configured time limit", async () => {
    const log: LogSink = { line: () => {}, close: async () => {} };
    const config = parseDevServerConfig("port: 0\ncommandTimeLimit: 100\n", "/tmp/config.yaml");
    const quick = await startDevServer(config, { log });
    try {
      const code = "(fold (lambda (a x) (fold (+) a (enumerate 1 30000))) 0 (enumerate 1 10000))";
      const local = await post(
        quick,
        "/api/v1/local",
        JSON.stringify(await signed(code, "t", 1e9)),
      );
      assert.equal(
        JSON.parse(local.text).result.error.message,
        "Transaction timed out: it ran longer than this node's limit of 100 ms for one command",
      );
    } finally {
      await quick.close();
    }
  });

  it("answers oversized headers with a plain-text 431, as every other refusal", async () => {
    const response = await fetch(`${server.url}/version`, {
      headers: { "x-big": "x".repeat(20_000) },
    });
    assert.equal(response.status, 431);
    assert.equal(response.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(await response.text(), "the request headers are larger than the server's limit");
  });
});
