/**
 * Mempool sync between two real in-process nodes on loopback (A mines nothing, B mines on
 * demand): a command sent to A is pulled by B and mined there; what the admission rules refuse is
 * skipped and counted; a full round pushes what the peer lacks; `push` sends what is new. A small
 * HTTP server speaking the mempool API plays a peer whose commands are bad, whose answers are
 * malformed, and whose nonce needs all 64 bits.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { RunningNodeServer } from "../api/service/server.ts";
import { postJson, serveForTest, wireCommand } from "../api/service/test-support/test-server.ts";
import type { ParsedCommand } from "../command/index.ts";
import { transactionText } from "../node/executor/block/block-executor.ts";
import type { BraidNode } from "../node/node.ts";
import { cap, devCommand, GAS_CAP, manualNode } from "../node/test-support/dev-node.ts";
import { JsonNumber } from "../pact/values/index.ts";
import { MempoolSync, type MempoolSyncRound } from "./mempool-sync.ts";
import { PeerClient, PeerRequestError } from "./peer-client.ts";

const NETWORK = "development";

function transfer(nonce: string, chainId = "0"): ParsedCommand {
  return devCommand({
    code: '(coin.transfer "sender00" "sender01" 1.0)',
    caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber("1.0"))],
    nonce,
    chainId,
  });
}

const peerOf = (server: { port: number }) =>
  new PeerClient({ hostname: "127.0.0.1", port: server.port }, NETWORK);

/** A round's expected counts, the peer and chain filled in. */
const round = (
  peer: PeerClient,
  counts: Partial<MempoolSyncRound> & Pick<MempoolSyncRound, "full">,
): MempoolSyncRound => ({
  peer: peer.key,
  chainId: 0,
  listed: 0,
  missing: 0,
  inserted: 0,
  refused: 0,
  firstRefusal: null,
  pushed: 0,
  ...counts,
});

describe("mempool sync between two nodes", () => {
  let a: BraidNode;
  let b: BraidNode;
  let serverA: RunningNodeServer;
  let serverB: RunningNodeServer;
  const faults: unknown[] = [];
  const contract = (server: RunningNodeServer, endpoint: string) =>
    `${server.url}/chainweb/0.0/${NETWORK}/chain/0/pact/api/v1/${endpoint}`;
  const send = (server: RunningNodeServer, command: ParsedCommand) =>
    postJson(contract(server, "send"), { cmds: [wireCommand(command)] });
  const listen = (server: RunningNodeServer, command: ParsedCommand) =>
    postJson(contract(server, "listen"), { listen: command.hash });
  const pendingOn = (node: BraidNode, command: ParsedCommand) =>
    node.chains[0]!.mempool.has(command.hash);

  before(async () => {
    a = manualNode();
    b = manualNode({ mining: "on-demand" });
    serverA = await serveForTest(a, faults);
    serverB = await serveForTest(b, faults);
  });
  after(async () => {
    await Promise.all([serverA.close(), serverB.close()]);
    a.close();
    b.close();
    assert.deepEqual(faults, []);
  });

  const sent = transfer("sync: sent to A");

  it("a command sent to A reaches B's mempool in one round from B, and B mines it", async () => {
    assert.deepEqual(await send(serverA, sent), { requestKeys: [sent.hash] });
    const syncB = new MempoolSync(b.ports);
    const peerA = peerOf(serverA);
    assert.deepEqual(
      await syncB.syncOnce(peerA, 0),
      round(peerA, { full: true, listed: 1, missing: 1, inserted: 1 }),
    );
    const result = await listen(serverB, sent);
    assert.equal(result.reqKey, sent.hash);
    assert.deepEqual(result.result, { status: "success", data: "Write succeeded" });
    const polled = await postJson(contract(serverB, "poll"), { requestKeys: [sent.hash] });
    assert.deepEqual(polled[sent.hash], result);
    assert.equal(pendingOn(a, sent), true, "A mines nothing: still pending there");
    assert.deepEqual(
      await syncB.syncOnce(peerA, 0),
      round(peerA, { full: false }),
      "since the mark: nothing new",
    );
  });

  it("a command already on B's chain is refused when a full round lists it again", async () => {
    const fresh = new MempoolSync(b.ports);
    const peerA = peerOf(serverA);
    assert.deepEqual(
      await fresh.syncOnce(peerA, 0),
      round(peerA, {
        full: true,
        listed: 1,
        missing: 1,
        refused: 1,
        firstRefusal: `${sent.hash}: Transaction already exists on chain`,
      }),
    );
    assert.equal(pendingOn(b, sent), false);
  });

  it("a full round pushes what the peer lacks, and push sends what is new", async () => {
    const syncA = new MempoolSync(a.ports);
    const peerB = peerOf(serverB);
    const pushed = transfer("sync: pushed by A");
    await send(serverA, pushed);
    // B's list is empty: A pushes both its pending commands; B takes the new one and mines it.
    assert.deepEqual(await syncA.syncOnce(peerB, 0), round(peerB, { full: true, pushed: 2 }));
    assert.equal((await listen(serverB, pushed)).result.status, "success");
    const later = transfer("sync: pushed on arrival");
    await send(serverA, later);
    assert.equal(await syncA.push(peerB, 0), 1);
    assert.equal((await listen(serverB, later)).result.status, "success");
    assert.equal(await syncA.push(peerB, 0), 0, "nothing new");
  });

  it("syncAll runs a round with every chain", async () => {
    const onChain3 = transfer("sync: chain 3", "3");
    await postJson(`${serverA.url}/chainweb/0.0/${NETWORK}/chain/3/pact/api/v1/send`, {
      cmds: [wireCommand(onChain3)],
    });
    const rounds = await new MempoolSync(b.ports).syncAll(peerOf(serverA));
    assert.equal(rounds.length, 20);
    assert.deepEqual(
      rounds.map((r) => r.inserted),
      Array.from({ length: 20 }, (_, c) => (c === 3 ? 1 : 0)),
    );
  });

  it("a peer that does not answer is a PeerRequestError", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const peer = new PeerClient({ hostname: "127.0.0.1", port }, NETWORK);
    await assert.rejects(
      new MempoolSync(b.ports).syncOnce(peer, 0),
      (e) => e instanceof PeerRequestError && e.endpoint === "mempoolGetPending",
    );
  });

  describe("a peer with bad commands and a 64-bit nonce (a test server)", () => {
    const NONCE = "7530864100535968633";
    let fake: Server;
    let peer: PeerClient;
    /** The queries of its getPending calls, and what it answers next. */
    const queries: string[] = [];
    let pendingAnswer = "";
    const commands = new Map<string, string>();

    before(async () => {
      fake = createServer((request, response) => {
        let body = "";
        request.on("data", (chunk) => {
          body += chunk;
        });
        request.on("end", () => {
          const url = new URL(request.url ?? "/", "http://fake");
          response.setHeader("content-type", "application/json");
          if (url.pathname.endsWith("/mempool/getPending")) {
            queries.push(url.search);
            response.end(pendingAnswer);
          } else if (url.pathname.endsWith("/mempool/lookup")) {
            const keys = JSON.parse(body) as string[];
            const results = keys.map((k) =>
              commands.has(k) ? { tag: "Pending", contents: commands.get(k) } : { tag: "Missing" },
            );
            response.end(JSON.stringify(results));
          } else {
            response.statusCode = 404;
            response.end();
          }
        });
      });
      await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
      peer = peerOf(fake.address() as AddressInfo);
    });
    after(() => new Promise((resolve) => fake.close(resolve)));

    it("skips and counts a bad signature, another chain's command and one not asked for; keeps the nonce exact", async () => {
      const badSignature = transfer("fake: bad signature");
      const otherChain = transfer("fake: chain 1", "1");
      const swapped = transfer("fake: not asked for");
      const asked = transfer("fake: asked for, answered with another");
      commands.set(
        badSignature.hash,
        JSON.stringify({ ...wireCommand(badSignature), sigs: [{ sig: "00".repeat(64) }] }),
      );
      commands.set(otherChain.hash, transactionText(otherChain));
      commands.set(asked.hash, transactionText(swapped));
      const hashes = [badSignature.hash, otherChain.hash, asked.hash];
      pendingAnswer = `{"hashes":${JSON.stringify(hashes)},"highwaterMark":[${NONCE},5]}`;
      const sync = new MempoolSync(b.ports);
      const first = await sync.syncOnce(peer, 0);
      assert.deepEqual(
        { ...first, firstRefusal: null },
        round(peer, { full: true, listed: 3, missing: 3, refused: 3 }),
      );
      assert.match(String(first.firstRefusal), /signature/);
      for (const command of [badSignature, otherChain, swapped]) {
        assert.equal(pendingOn(b, command), false);
      }
      pendingAnswer = `{"hashes":[],"highwaterMark":[${NONCE},6]}`;
      assert.deepEqual(await sync.syncOnce(peer, 0), round(peer, { full: false }));
      assert.deepEqual(queries.slice(-2), ["", `?nonce=${NONCE}&since=5`]);
    });

    it("a malformed getPending answer is a PeerRequestError naming what is wrong", async () => {
      pendingAnswer = '{"hashes":["x"],"highwaterMark":[1,2]}';
      await assert.rejects(new MempoolSync(b.ports).syncOnce(peer, 0), {
        name: "Error",
        message: `${peer.key} mempoolGetPending: hashes[0] is not a request key`,
      });
      pendingAnswer = '{"hashes":[],"highwaterMark":[1]}';
      await assert.rejects(new MempoolSync(b.ports).syncOnce(peer, 0), {
        message: `${peer.key} mempoolGetPending: "highwaterMark" is not [nonce, since], two integers`,
      });
    });
  });
});
