/**
 * The development server's contract thread stopped by its watchdog: a command that holds it past
 * the time limit and the grace outside the interpreter's clock (parsing a million literals) is
 * answered as timed out, and a fresh thread opens the state again, so a server without
 * `persistDir` keeps every module it had. And the bound on the work waiting for the thread.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Pact } from "@kadena/client";
import { devCommand } from "../../node/test-support/dev-node.ts";
import type { LogSink } from "../http/access-log.ts";
import { parseDevServerConfig } from "./config.ts";
import { MAX_SEND_COMMANDS, MAX_WAITING_WORK } from "./limits.ts";
import { type RunningDevServer, startDevServer } from "./server.ts";

/** The time limit here: far below what parsing the literals takes. */
const LIMIT_MS = 50;
const TIMED_OUT = `Transaction timed out: it ran longer than this node's limit of ${LIMIT_MS} ms for one command`;
/** About 3 s of parsing on the 2-core machine this was written on, which no gas counts. */
const MILLION_LITERALS = `(+ ${"1 ".repeat(1_000_000)})`;

/** The commands holding the contract thread while the queue's test fills it. */
const BLOCKERS = 10;

/** A command's body as a client sends it, signed by sender00. */
function body(code: string, nonce: string): string {
  const c = devCommand({ code, nonce, gasLimit: 100_000 });
  return JSON.stringify({ hash: c.hash, sigs: c.sigs.map((sig) => ({ sig })), cmd: c.cmd });
}

/** POSTs `text` to `/api/v1/{path}` of `server`: the status and the body. */
async function postTo(server: RunningDevServer, path: string, text: string) {
  const response = await fetch(`${server.url}/api/v1/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: text,
  });
  return { status: response.status, text: await response.text() };
}

describe("the development server's contract thread, stopped by its watchdog", {
  timeout: 60_000,
}, () => {
  let server: RunningDevServer;
  const lines: string[] = [];
  before(async () => {
    const log: LogSink = { line: (text) => lines.push(text), close: async () => {} };
    const config = parseDevServerConfig(
      `port: 0\ncommandTimeLimit: ${LIMIT_MS}\nbodyLimit: 4194304\n`,
      "/tmp/config.yaml",
    );
    server = await startDevServer(config, { log });
  });
  after(() => server.close());

  const post = (path: string, text: string) => postTo(server, path, text);
  /** Sends one command and polls until its result is stored. */
  const sendAndPoll = async (command: string) => {
    assert.equal((await post("send", `{"cmds":[${command}]}`)).status, 200);
    const keys = JSON.stringify({ requestKeys: [JSON.parse(command).hash] });
    for (;;) {
      const polled = Object.values(JSON.parse((await post("poll", keys)).text));
      if (polled.length > 0) return polled[0] as { reqKey: string; result: unknown; txId: unknown };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it("answers the command as timed out, and the state in memory keeps its module", async () => {
    const deployed = await sendAndPoll(
      body("(module m G (defcap G () true) (defun f () 7))", "deploy"),
    );
    assert.deepEqual(
      { status: (deployed.result as { status: string }).status },
      {
        status: "success",
      },
    );
    const literals = body(MILLION_LITERALS, "literals");
    const stopped = await sendAndPoll(literals);
    assert.deepEqual(stopped, {
      gas: 0,
      result: {
        status: "failure",
        error: { callStack: [], type: "EvalError", message: TIMED_OUT, info: "<toplevel>:0" },
      },
      reqKey: JSON.parse(literals).hash,
      logs: "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g",
      metaData: null,
      continuation: null,
      txId: null,
    });
    assert.ok(
      lines.includes(
        `a command held the contract thread ${LIMIT_MS + 1_000} ms; the thread is replaced and opens the state again`,
      ),
      lines.join("\n"),
    );
    const called = await sendAndPoll(body("(m.f)", "after"));
    assert.deepEqual(called.result, { status: "success", data: { int: 7 } });
    assert.equal(called.txId, 1, "the stopped command used no transaction id");
    const local = await post("local", body(MILLION_LITERALS, "local literals"));
    assert.deepEqual(local, { status: 400, text: TIMED_OUT });
  });
});

describe("the development server's contract thread, its queue full", { timeout: 60_000 }, () => {
  let server: RunningDevServer;
  before(async () => {
    const log: LogSink = { line: () => {}, close: async () => {} };
    // Each blocker's literals hold the thread to their end or 2 s (its limit and the grace),
    // about a second here: BLOCKERS of them, one after another, so that the batches arrive while
    // the thread is held even on a busy machine (with one, on CI, they came after it).
    const config = parseDevServerConfig(
      "port: 0\ncommandTimeLimit: 1000\nbodyLimit: 33554432\n",
      "/tmp/config.yaml",
    );
    server = await startDevServer(config, { log });
  });
  after(() => server.close());

  it("refuses a send whose commands would pass MAX_WAITING_WORK with a 503, queuing none", async () => {
    const post = (path: string, text: string) => postTo(server, path, text);
    // Commands without signers, checked quickly; each waits behind the literals.
    const batch = (b: number) =>
      JSON.stringify({
        cmds: Array.from({ length: MAX_SEND_COMMANDS }, (_, i) =>
          Pact.builder
            .execution("1")
            .setMeta({ chainId: "0", senderAccount: "sender00" })
            .setNonce(`wait-${b}-${i}`)
            .createTransaction(),
        ),
      });
    const batches = Array.from({ length: MAX_WAITING_WORK / MAX_SEND_COMMANDS }, (_, b) =>
      batch(b),
    );
    const blockers = Array.from({ length: BLOCKERS }, (_, i) =>
      body(MILLION_LITERALS, `blocker ${i}`),
    );
    const blocker = post("send", `{"cmds":[${blockers.join(",")}]}`);
    // Time for the server to read the blockers' 20 MB and queue them.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // The blockers not done yet and nine batches wait; the tenth would pass MAX_WAITING_WORK.
    const answers = await Promise.all(batches.map((text) => post("send", text)));
    assert.equal((await blocker).status, 200);
    const refused = answers.filter((a) => a.status !== 200);
    assert.equal(refused.length, 1, JSON.stringify(refused));
    assert.equal(refused[0]!.status, 503);
    const waiting = Number(/^(\d+) /.exec(refused[0]!.text)?.[1]);
    const queued = MAX_WAITING_WORK - MAX_SEND_COMMANDS;
    assert.ok(waiting > queued && waiting <= queued + BLOCKERS, refused[0]!.text);
    assert.equal(
      refused[0]!.text,
      `${waiting} commands wait for the server's contract thread already (at most ${MAX_WAITING_WORK}); try again shortly`,
    );
  });
});
