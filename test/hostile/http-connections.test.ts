/**
 * Issue 24, item 6: slow and greedy clients against a `braid node` process, with the real limits
 * (src/api/http/connections.ts). Clients that send their headers a line at a time are cut off
 * with a 408 once the header deadline passes, while a well-behaved client keeps getting answers;
 * one address cannot open more than its share of connections; and in process, with the total
 * lowered, connections beyond it are closed at once. Issue 33, item 4: half-sent requests from
 * 40 addresses, each at its per-address limit, more than the total in all, do not keep out a
 * client with few connections. The attackers connect from other loopback addresses (127.0.0.2
 * and up) than the well-behaved client (127.0.0.1), as remote clients would.
 */
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { after, before, describe, it } from "node:test";
import {
  defaultConnectionLimits,
  HEADERS_TIMEOUT_MS,
  MAX_CONNECTIONS,
  MAX_CONNECTIONS_PER_CLIENT,
  openFileLimit,
  REQUEST_TIMEOUT_MS,
} from "../../src/api/http/connections.ts";
import { startNodeServer } from "../../src/api/service/server.ts";
import { skipOrRequire } from "../../src/chain/test-support/skip-or-require.ts";
import { encodeSubmitBatch } from "../../src/command/index.ts";
import { manualNode } from "../../src/node/test-support/dev-node.ts";
import { transferCommand } from "../crash/support/requests.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

interface RawClient {
  readonly socket: net.Socket;
  /** What the server sent. */
  text: string;
  /** When the server closed the connection (ms after the start), or null. */
  closedAt: number | null;
}

function connect(port: number, from: string, started: number): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1", localAddress: from });
    const client: RawClient = { socket, text: "", closedAt: null };
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      client.text += chunk;
    });
    socket.on("close", () => {
      client.closedAt = Date.now() - started;
    });
    socket.once("connect", () => resolve(client));
    socket.once("error", reject);
  });
}

const statusLine = (client: RawClient) => client.text.split("\r\n")[0];

describe("connections to a node process", () => {
  let node: NodeProcess;
  let port: number;
  before(async () => {
    node = await startNode();
    port = Number(new URL(node.url).port);
  });
  after(() => node.stop());

  it("cuts off clients that send headers slowly, and answers a well-behaved one meanwhile", async () => {
    const started = Date.now();
    const slow = await Promise.all(
      Array.from({ length: 200 }, () => connect(port, "127.0.0.2", started)),
    );
    const drip = setInterval(() => {
      for (const c of slow) if (c.closedAt === null) c.socket.write("x-drip: 1\r\n");
    }, 500);
    for (const c of slow) c.socket.write("GET /info HTTP/1.1\r\nhost: 127.0.0.1\r\n");
    const answers: number[] = [];
    try {
      while (slow.some((c) => c.closedAt === null) && Date.now() - started < 20_000) {
        const asked = performance.now();
        const response = await fetch(`${node.url}/info`);
        assert.equal(response.status, 200);
        await response.text();
        answers.push(performance.now() - asked);
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      clearInterval(drip);
      for (const c of slow) c.socket.destroy();
    }
    const latest = Math.max(...slow.map((c) => c.closedAt ?? Number.POSITIVE_INFINITY));
    assert.ok(
      latest <= HEADERS_TIMEOUT_MS + 3_000,
      `every slow client is cut off within the header deadline and a check (the last after ${latest} ms)`,
    );
    assert.deepEqual(new Set(slow.map(statusLine)), new Set(["HTTP/1.1 408 Request Timeout"]));
    assert.match(slow[0]!.text, /\r\nx-chainweb-node-version: /);
    assert.match(slow[0]!.text, /\r\ncontent-type: text\/plain; charset=utf-8\r\n/);
    assert.ok(answers.length >= 20, `the well-behaved client was answered ${answers.length} times`);
    assert.ok(Math.max(...answers) < 1_000, `its slowest answer took ${Math.max(...answers)} ms`);
  });

  it("answers one address's connections beyond its share with a 503, and serves the others", async () => {
    const started = Date.now();
    const held = await Promise.all(
      Array.from({ length: MAX_CONNECTIONS_PER_CLIENT }, () => connect(port, "127.0.0.3", started)),
    );
    try {
      const extra = await connect(port, "127.0.0.3", started);
      extra.socket.write("GET /info HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n");
      const until = Date.now() + 5_000;
      while (extra.closedAt === null && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(statusLine(extra), "HTTP/1.1 503 Service Unavailable");
      assert.match(extra.text, /\r\nx-server-timestamp: \d+\r\n/);
      assert.match(extra.text, /\r\ncontent-type: text\/plain; charset=utf-8\r\n/);
      assert.ok(
        extra.text.endsWith(
          `too many open connections from 127.0.0.3 (at most ${MAX_CONNECTIONS_PER_CLIENT} per client); close some and retry`,
        ),
        extra.text,
      );
      assert.ok(
        held.every((c) => c.closedAt === null),
        "the first ones stay open",
      );
      const other = await fetch(`${node.url}/info`);
      assert.equal(other.status, 200);
    } finally {
      for (const c of held) c.socket.destroy();
    }
  });
});

/** The attacking addresses: 127.0.0.2 and the next 39, enough to hold more than the total. */
const ATTACKERS = Array.from({ length: 40 }, (_, i) => `127.0.0.${i + 2}`);

/**
 * A request whose body never comes whole: held until the request deadline (60 s), longer than
 * headers sent a line at a time (10 s), so that the attack outlasts its own setting up.
 */
const HALF_SENT =
  "POST /chainweb/0.0/development/chain/0/pact/api/v1/send HTTP/1.1\r\nhost: 127.0.0.1\r\n" +
  'content-type: application/json\r\ncontent-length: 1000\r\n\r\n{"cmds":[';

/** POSTs `body` to `url` on a connection of its own from 127.0.0.1; the status, or the error. */
function postAlone(url: string, body: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.request(url, {
      method: "POST",
      agent: false,
      localAddress: "127.0.0.1",
      headers: { "content-type": "application/json" },
    });
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    request.end(body);
  });
}

/** The attack's connections, the node's on one side and this process's on the other. */
const ATTACK_CONNECTIONS = ATTACKERS.length * MAX_CONNECTIONS_PER_CLIENT;
/** The open files each process needs beyond the attack's (the node's own, a few sends). */
const FILES_BEYOND_ATTACK = 256;

/**
 * Skipped, naming the limit, where a process may open too few files to hold the attack (Linux's
 * default soft limit is often 1,024; `ulimit -n 20000` raises it), except on CI, which must run it.
 */
function fileLimitSkip(): string | false {
  const files = openFileLimit();
  const needed = ATTACK_CONNECTIONS + FILES_BEYOND_ATTACK;
  return skipOrRequire(
    files === null || files >= needed
      ? undefined
      : `this process may open ${files} files, the attack needs ${needed} (ulimit -n ${needed})`,
    process.env["CI"] === "true" ? "the slowloris test must run on CI (CI=true)" : undefined,
  );
}

describe("connections from many slow addresses", { skip: fileLimitSkip() }, () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNode();
  });
  after(() => node.stop());

  it("do not keep out a client with few connections", async () => {
    const attack = ATTACK_CONNECTIONS;
    assert.ok(attack > MAX_CONNECTIONS, "the attack holds more than the total");
    const started = Date.now();
    const slow: RawClient[] = [];
    try {
      for (const address of ATTACKERS) {
        const batch = await Promise.all(
          Array.from({ length: MAX_CONNECTIONS_PER_CLIENT }, () =>
            connect(port(node), address, started),
          ),
        );
        for (const c of batch) c.socket.write(HALF_SENT);
        slow.push(...batch);
      }
      const opened = Date.now() - started;
      // Give the server time to take the last of them.
      await new Promise((r) => setTimeout(r, 500));
      const sends = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          postAlone(
            `${node.api(0)}/send`,
            encodeSubmitBatch([transferCommand(0, 1, "1.0", 0, `fair ${i}`)]),
          ),
        ),
      );
      const elapsed = Date.now() - started;
      assert.ok(
        elapsed < REQUEST_TIMEOUT_MS,
        `the sends came before the request deadline (${elapsed} ms)`,
      );
      assert.deepEqual(sends, Array(30).fill(200));
      // Those beyond the total were closed, at once or to make room (the sends', once answered and
      // closed, may have let late ones in); the closes may reach this process after the answers.
      const closed = () => slow.filter((c) => c.closedAt !== null).length;
      const until = Date.now() + 2_000;
      while (closed() < attack - MAX_CONNECTIONS && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 10));
      }
      const displaced = closed();
      assert.ok(displaced >= attack - MAX_CONNECTIONS, `${displaced} slow connections closed`);
      console.log(
        `slowloris: ${slow.length} half-sent requests from ${ATTACKERS.length} addresses opened in ${opened} ms, ${displaced} of them closed; 30 of 30 sends answered 200 after ${elapsed} ms`,
      );
    } finally {
      for (const c of slow) c.socket.destroy();
    }
  });
});

const port = (node: NodeProcess) => Number(new URL(node.url).port);

/** A node's service in this process, holding at most `maxConnections` connections. */
async function serverWithTotal(maxConnections: number) {
  const node = manualNode();
  const server = await startNodeServer(node.ports, {
    host: "127.0.0.1",
    port: 0,
    bodyLimit: 1 << 20,
    listenTimeoutSeconds: 5,
    connections: { ...defaultConnectionLimits(), maxConnections },
    onFault: (e) => assert.fail(String(e)),
  });
  return { node, server };
}

describe("the total of connections", () => {
  it("closes connections beyond it at once and serves again once some close", async () => {
    const { node, server } = await serverWithTotal(8);
    const started = Date.now();
    try {
      const held = await Promise.all(
        Array.from({ length: 8 }, () => connect(server.port, "127.0.0.1", started)),
      );
      const beyond = await connect(server.port, "127.0.0.1", started).catch(() => null);
      const until = Date.now() + 2_000;
      while (beyond !== null && beyond.closedAt === null && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.ok(beyond === null || (beyond.closedAt !== null && beyond.text === ""));
      for (const c of held) c.socket.destroy();
      await new Promise((r) => setTimeout(r, 50));
      assert.equal((await fetch(`${server.url}/info`)).status, 200);
    } finally {
      await server.close();
      node.close();
    }
  });
});

describe("making room at the total", () => {
  it("closes the oldest unanswered connection of the most-connected address, never one being answered", async () => {
    const { node, server } = await serverWithTotal(8);
    const started = Date.now();
    const held: RawClient[] = [];
    try {
      // The oldest connection of 127.0.0.2 waits on a `listen`: a whole request, being answered.
      const listening = await connect(server.port, "127.0.0.2", started);
      const body = JSON.stringify({ listen: "A".repeat(43) });
      listening.socket.write(
        `POST /chainweb/0.0/development/chain/0/pact/api/v1/listen HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
      await new Promise((r) => setTimeout(r, 200));
      held.push(listening);
      for (let i = 0; i < 7; i++) {
        const slow = await connect(server.port, "127.0.0.2", started);
        slow.socket.write("GET /info HTTP/1.1\r\n");
        held.push(slow);
      }
      await new Promise((r) => setTimeout(r, 200));
      const answer = await fetch(`${server.url}/info`, { signal: AbortSignal.timeout(5_000) });
      assert.equal(answer.status, 200);
      await answer.text();
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(
        held.map((c) => c.closedAt !== null),
        [false, true, false, false, false, false, false, false],
      );
      // Another address gets in too, in place of the next oldest unanswered one.
      const third = await connect(server.port, "127.0.0.3", started);
      held.push(third);
      third.socket.write("GET /info HTTP/1.1\r\n");
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(
        held.map((c) => c.closedAt !== null),
        [false, true, true, false, false, false, false, false, false],
      );
    } finally {
      for (const c of held) c.socket.destroy();
      await server.close();
      node.close();
    }
  });
});
