/**
 * The last round's storage and dev-control checks again, now among peers (issue #33): each node
 * in a network namespace of its own.
 *
 * - A follower whose disk fills while its peer mines: it refuses writes with the documented 503,
 *   keeps serving reads, blames nobody (its peer is not penalised for the follower's own disk),
 *   says so a bounded number of times, and catches up with its peer once there is space again.
 * - A node whose stored payload was damaged on the disk: it serves the damaged bytes to no peer
 *   (its P2P payload answers leave that payload out or refuse it), and a new follower that asks it
 *   and an honest node ends with the honest node's chains, block for block.
 * - A node listening on every address of its host (`--host 0.0.0.0`): its peers sync from it, but
 *   the development controls refuse them without `--dev-controls`.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { encodeSubmitBatch } from "../../src/command/index.ts";
import { post, transferCommand } from "../crash/support/requests.ts";
import { fillDisk } from "../support/fill-disk.ts";
import { converged, cutOf } from "./support/converge.ts";
import type { NetNode } from "./support/net-node.ts";
import { networkTestSkip, TestNetwork } from "./support/netns.ts";

const BASE = "/chainweb/0.0/development";
const CHAINS = Array.from({ length: 20 }, (_, c) => c);
/** The tmpfs the full-disk follower's data directory lives on. */
const DISK_BYTES = 48 * 1024 * 1024;
/** How long a node may take to catch up with its peer. */
const CATCH_UP_MS = 60_000;

async function mine(node: NetNode, blocks: number, chains: readonly number[] = CHAINS) {
  const answer = await post(`${node.url}/braid/dev/mine`, JSON.stringify({ blocks, chains }));
  assert.equal(answer.status, 200, answer.text);
}

const linesWith = (output: string, pattern: RegExp) =>
  output.split("\n").filter((line) => pattern.test(line));

describe("storage faults among peers", { skip: networkTestSkip(), timeout: 300_000 }, () => {
  let net: TestNetwork;
  let miner: NetNode;
  const mount = mkdtempSync(join(tmpdir(), "braid-netfull-"));
  let mounted = false;

  before(async () => {
    net = await TestNetwork.create(["m", "full", "bad", "honest", "fresh", "open", "asker"]);
    miner = await net.startNode("m", { args: ["--mining", "none", "--dev-controls"] });
    await mine(miner, 10);
  });
  after(async () => {
    await net?.close();
    if (mounted) spawnSync("umount", [mount]);
    rmSync(mount, { recursive: true, force: true });
  });

  it("a follower's full disk: 503 for writes, reads go on, its peer kept, caught up with space", async () => {
    const mountResult = spawnSync(
      "mount",
      ["-t", "tmpfs", "-o", `size=${DISK_BYTES}`, "tmpfs", mount],
      { encoding: "utf8" },
    );
    assert.equal(mountResult.status, 0, `mount a tmpfs: ${mountResult.stderr}`);
    mounted = true;
    const follower = await net.startNode("full", {
      dataDir: join(mount, "data"),
      args: ["--mining", "none", "--peer", miner.peer],
    });
    try {
      await converged([miner, follower], CATCH_UP_MS);

      const filler = fillDisk(mount);
      const fullFrom = follower.output().length;
      await mine(miner, 30);
      await follower.waitForLog(/storage: /, { timeoutMs: 20_000, from: fullFrom });

      // While the disk is full: reads answer, a send is refused with the documented 503.
      const statuses = new Map<string, number>();
      for (let i = 0; i < 20; i++) {
        for (const path of ["/info", `${BASE}/cut`, `${BASE}/chain/0/header?limit=5`]) {
          const response = await fetch(`${follower.url}${path}`);
          await response.arrayBuffer();
          const key = `${path.split("?")[0]} ${response.status}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.deepEqual([...statuses.keys()].sort(), [
        `${BASE}/chain/0/header 200`,
        `${BASE}/cut 200`,
        "/info 200",
      ]);
      const command = transferCommand(0, 1, "1.5", 4, "netfull 1");
      const sent = await post(
        `${follower.url}${BASE}/chain/4/pact/api/v1/send`,
        encodeSubmitBatch([command]),
      );
      assert.equal(sent.status, 503, sent.text);
      assert.match(sent.text, /^disk full: /);

      rmSync(filler);
      const { millis } = await converged([miner, follower], CATCH_UP_MS, 200).catch((e) => {
        throw new Error(`${e}; the follower said:\n${follower.output().slice(fullFrom)}`);
      });
      const output = follower.output().slice(fullFrom);
      const storageLines = linesWith(output, /storage: |disk full/);
      console.log(
        `# caught up ${millis.toFixed(0)} ms after space came back; ${storageLines.length} storage lines`,
      );
      assert.ok(
        storageLines.length <= 10,
        `said a bounded number of times:\n${storageLines.join("\n")}`,
      );
      assert.deepEqual(linesWith(output, /not asked for a while/), [], "its peer is not blamed");
      assert.doesNotMatch(output, /internal error/);
      const stopped = await follower.stop();
      assert.equal(stopped.code, 0, "a clean stop");
      await follower.restart();
      assert.deepEqual((await cutOf(follower)).hashes, (await cutOf(miner)).hashes);
    } finally {
      await follower.stop();
    }
  });

  it("a damaged stored payload is served to no peer; a new follower ends with the honest chains", async () => {
    const chain = 3;
    const bad = await net.startNode("bad", { args: ["--mining", "none", "--peer", miner.peer] });
    const honest = await net.startNode("honest", {
      args: ["--mining", "none", "--peer", miner.peer],
    });
    const command = transferCommand(2, 3, "2.5", chain, "netcorrupt 1");
    const sent = await post(
      `${miner.url}${BASE}/chain/${chain}/pact/api/v1/send`,
      encodeSubmitBatch([command]),
    );
    assert.equal(sent.status, 200, sent.text);
    await mine(miner, 1, [chain]);
    await mine(miner, 2);
    await converged([miner, bad, honest], CATCH_UP_MS);
    const polled = await post(
      `${bad.url}${BASE}/chain/${chain}/pact/api/v1/poll`,
      JSON.stringify({ requestKeys: [command.hash] }),
    );
    const result = (JSON.parse(polled.text) as Record<string, { metaData: { blockHash: string } }>)[
      command.hash
    ];
    assert.ok(result !== undefined, polled.text);
    const header = (await (
      await fetch(`${bad.url}${BASE}/chain/${chain}/header/${result.metaData.blockHash}`, {
        headers: { accept: "application/json;blockheader-encoding=object" },
      })
    ).json()) as { payloadHash: string };

    // The miner stops, so that the new follower can learn these blocks from the two nodes alone.
    await miner.stop();
    await bad.stop();
    const log = join(bad.dataDir, "chain.sqlite-payloads", `${chain}.log`);
    const bytes = readFileSync(log);
    const at = bytes.indexOf("coin.transfer");
    assert.ok(at > 0, "the transfer is in its chain's payload log");
    bytes.write("XXXXXXXX", at);
    writeFileSync(log, bytes);
    await bad.restart();

    for (const path of ["payload/batch", "payload/outputs/batch"]) {
      const response = await fetch(`${bad.url}${BASE}/chain/${chain}/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify([header.payloadHash]),
      });
      const text = await response.text();
      assert.ok(!text.includes("XXXXXXXX"), `${path}: the damaged bytes are not served`);
      assert.ok(
        !text.includes(Buffer.from("XXXXXXXX").toString("base64url").slice(0, 8)),
        `${path}: not even encoded`,
      );
      assert.ok(response.status === 200 || response.status === 500, `${path}: ${response.status}`);
    }

    const fresh = await net.startNode("fresh", {
      args: ["--mining", "none", "--peer", bad.peer, "--peer", honest.peer],
    });
    await converged([honest, fresh], CATCH_UP_MS, 200);
    const page = (node: NetNode) =>
      fetch(`${node.url}${BASE}/chain/${chain}/block?minheight=0`).then((r) => r.text());
    assert.equal(await page(fresh), await page(honest), `chain ${chain}'s blocks`);
    const corruptLines = linesWith(bad.output(), /is corrupted/);
    assert.ok(corruptLines.length >= 1 && corruptLines.length <= 3, corruptLines.join("\n"));
    await Promise.all([bad.stop(), honest.stop(), fresh.stop()]);
    await miner.restart();
  });

  it("a node on every address: peers sync from it, the controls refuse them without --dev-controls", async () => {
    const { address } = net.host("open");
    const open = await net.startNode("open", {
      args: ["--host", "0.0.0.0", "--mining", "none", "--peer", miner.peer],
    });
    assert.match(open.output(), /Development controls .* are off: the node listens on 0\.0\.0\.0/);
    // Reached at its host's address, as its peers reach it.
    const openAtAddress = { ...open, url: `http://${address}:1848` } as NetNode;
    const asker = await net.startNode("asker", {
      args: ["--mining", "none", "--peer", `${address}:1848`],
    });
    await mine(miner, 1);
    await converged([miner, openAtAddress, asker], CATCH_UP_MS);
    const controls = await net.exec("asker", process.execPath, [
      "-e",
      "fetch(process.argv[1], { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })" +
        ".then(async (r) => { console.log(r.status, await r.text()); })",
      `http://${address}:1848/braid/dev/snapshot`,
    ]);
    assert.match(controls, /^403 the development controls are off: .*--dev-controls/, controls);
    assert.equal(await net.fetchFrom("asker", `http://${address}:1848${BASE}/cut`, 5_000), 200);
  });
});
