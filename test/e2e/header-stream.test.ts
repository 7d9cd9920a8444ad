/**
 * End to end against `braid node` in a child process (issue #12, Show): the header stream
 * delivers every block's event, in order per chain, to two readers at once while a third
 * subscriber reads nothing; mining goes on at its pace regardless; the block and branch pages
 * hold the streamed blocks; shutdown ends the streams cleanly; a restart on the same data
 * directory keeps every block.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const TSX = import.meta.resolve("tsx");
const INTERVAL_S = 0.25;
const STREAM_MS = 4_000;

interface Running {
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
}

async function startNode(dataDir: string, mining: string[]): Promise<Running> {
  const child = spawn(
    process.execPath,
    ["--import", TSX, MAIN, "node", "--data-dir", dataDir, "--port", "0", ...mining],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    // Keep draining stdout (one log line per block) so the child never blocks on it.
    child.stdout?.on("data", (chunk: Buffer) => {
      if (out.length < 10_000) out += chunk.toString();
      const match = /URL +(http:\/\/\S+)/.exec(out);
      if (match !== null) resolve(match[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`braid node exited with ${code}: ${out}`)));
  });
  return { url, child, exited };
}

interface Reader {
  readonly events: { chainId: number; height: number; hash: string; data: string }[];
  readonly ended: Promise<"end" | "aborted">;
  readonly raw: string[];
}

/** A subscriber that parses every event it receives. */
function read(url: string): Promise<Reader> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers["content-type"], "text/event-stream");
      assert.ok(response.headers["x-server-timestamp"]);
      const reader: Reader = {
        events: [],
        raw: [],
        ended: new Promise((done) => {
          response.once("end", () => done("end"));
          response.once("aborted", () => done("aborted"));
          response.once("error", () => done("aborted"));
        }),
      };
      let buffer = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(":")) continue;
          reader.raw.push(block);
          const [eventLine, dataLine] = block.split("\n");
          assert.equal(eventLine, "event:BlockHeader");
          assert.ok(dataLine?.startsWith("data:"));
          const data = dataLine!.slice(5);
          const header = JSON.parse(data).header;
          reader.events.push({
            chainId: header.chainId,
            height: header.height,
            hash: header.hash,
            data,
          });
        }
      });
      resolve(reader);
    });
    request.once("error", reject);
  });
}

/** A subscriber that never reads: its socket's buffers fill up. */
function stall(url: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, (response) => {
      response.pause();
      resolve(response);
    });
    request.once("error", reject);
  });
}

async function json(
  url: string,
  init?: RequestInit,
): Promise<{ items: unknown[]; next: string | null }> {
  const response = await fetch(url, init);
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as { items: unknown[]; next: string | null };
}

describe("braid node: header stream, pages and restart, in a child process", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "braid-streams-"));
  let node: Running | undefined;
  after(() => {
    node?.child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("streams every block in order to two readers beside a stalled one, and keeps them over a restart", async () => {
    node = await startNode(dataDir, [
      "--mining",
      "interval",
      "--mining-interval",
      String(INTERVAL_S),
    ]);
    const base = `${node.url}/chainweb/0.0/development`;
    const stalled = await stall(`${base}/block/updates`);
    const stalledHeaders = await stall(`${base}/header/updates`);
    const a = await read(`${base}/header/updates`);
    const b = await read(`${base}/header/updates`);
    const started = Date.now();
    await new Promise((r) => setTimeout(r, STREAM_MS));
    const elapsed = Date.now() - started;
    node.child.kill("SIGTERM");
    assert.equal(await node.exited, 0);
    const [endA, endB] = await Promise.all([a.ended, b.ended]);
    assert.equal(endA, "end", "the stream ends cleanly on shutdown");
    assert.equal(endB, "end");
    stalled.destroy();
    stalledHeaders.destroy();

    // Both readers saw the same events, in order per chain, heights without gaps. The first
    // reader subscribed a moment before the second, so on a loaded machine a block or a round may
    // come between: from the second reader's first event on, the two are the same.
    assert.ok(b.raw.length > 0, "the second reader got events");
    const bStartsAt = a.raw.indexOf(b.raw[0]!);
    assert.ok(bStartsAt >= 0, "the second reader's first event reached the first reader too");
    assert.deepEqual(a.raw.slice(bStartsAt), b.raw);
    const perChain = new Map<number, { height: number; hash: string }[]>();
    for (const e of a.events) {
      const list = perChain.get(e.chainId) ?? [];
      list.push(e);
      perChain.set(e.chainId, list);
    }
    assert.equal(perChain.size, 20, "every chain streamed");
    for (const [chainId, list] of perChain) {
      for (let i = 1; i < list.length; i++) {
        assert.equal(list[i]!.height, list[i - 1]!.height + 1, `chain ${chainId} in order`);
      }
    }
    // Mining kept its pace: about one block per chain per interval, despite the stalled reader.
    const rounds = a.events.length / 20;
    const expected = elapsed / 1000 / INTERVAL_S;
    assert.ok(rounds >= expected * 0.6, `${rounds} rounds in ${elapsed} ms`);
    // The event data: header, powHash (64 hex), target (64 hex), txCount.
    const first = JSON.parse(a.events[0]!.data);
    assert.deepEqual(Object.keys(first), ["header", "powHash", "target", "txCount"]);
    assert.match(first.powHash, /^[0-9a-f]{64}$/);
    assert.match(first.target, /^[0-9a-f]{64}$/);

    // Restart on the same data, without mining: the streamed blocks are all in the pages.
    node = await startNode(dataDir, ["--mining", "none"]);
    const restarted = `${node.url}/chainweb/0.0/development`;
    for (const [chainId, list] of perChain) {
      const last = list[list.length - 1]!;
      const firstHeight = list[0]!.height;
      const page = await json(
        `${restarted}/chain/${chainId}/block?minheight=${firstHeight}&maxheight=${last.height}`,
      );
      assert.deepEqual(
        page.items.map((i) => (i as { header: { hash: string } }).header.hash),
        list.map((e) => e.hash),
      );
      const branch = await json(
        `${restarted}/chain/${chainId}/hash/branch?minheight=${firstHeight}`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ lower: [], upper: [last.hash] }),
        },
      );
      assert.deepEqual(branch.items, list.map((e) => e.hash).reverse());
    }
    // Every row of the spec's Errors table for the block endpoints and the header stream.
    const head = perChain.get(0)!.at(-1)!.hash;
    const unknown = "B".repeat(43);
    const branch = (body: unknown, query = "", accept?: string) =>
      fetch(`${restarted}/chain/0/block/branch${query}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(accept ? { accept } : {}) },
        body: JSON.stringify(body),
      });
    const rows: [string, Promise<Response>, number][] = [
      ["GET block: success", fetch(`${restarted}/chain/0/block?limit=2`), 200],
      ["GET block: no block matches", fetch(`${restarted}/chain/0/block?minheight=999999`), 404],
      [
        "GET block: invalid next",
        fetch(`${restarted}/chain/0/block?next=inclusive:${unknown}`),
        404,
      ],
      ["GET block: invalid maxheight", fetch(`${restarted}/chain/0/block?maxheight=high`), 404],
      ["branch: success", branch({ lower: [], upper: [head] }, "?limit=2"), 200],
      [
        "branch: bounds exceeded",
        branch({
          lower: Array(33)
            .fill(0)
            .map((_, i) => `${"A".repeat(42)}${"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg"[i]}`),
          upper: [head],
        }),
        400,
      ],
      ["branch: no block matches", branch({ lower: [head], upper: [head] }), 404],
      ["branch: invalid next", branch({ lower: [], upper: [head] }, "?next=inclusive"), 404],
      ["branch: invalid maxheight", branch({ lower: [], upper: [head] }, "?maxheight=-3"), 404],
      ["branch: Accept", branch({ lower: [], upper: [head] }, "", "application/xml"), 406],
    ];
    for (const [name, response, status] of rows) {
      const r = await response;
      assert.equal(r.status, status, `${name}: ${await r.text()}`);
      assert.ok(r.headers.get("x-server-timestamp"), name);
    }
    const stream = await read(`${restarted}/header/updates`);
    node.child.kill("SIGTERM");
    assert.equal(await node.exited, 0);
    assert.equal(await stream.ended, "end");
    node = undefined;
  });
});
