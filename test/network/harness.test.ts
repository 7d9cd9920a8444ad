/**
 * The network test harness itself, with real processes: Braid nodes in their own network
 * namespaces answering on their namespace addresses, to each other and to the test process;
 * partitions (nft) that cut two hosts off and heal; a slow link (tc) that slows a transfer; a
 * crash and restart; and nothing left behind, in the root namespace or anywhere, after close().
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { clientFor, readCommand } from "../e2e/support/kadena.ts";
import { DEFAULT_NODE_PORT, type NetNode } from "./support/net-node.ts";
import {
  NAMESPACE_PREFIX,
  NetemUnavailable,
  networkTestSkip,
  TestNetwork,
} from "./support/netns.ts";

/** How long a probe across a partition waits for an answer that must not come. */
const PARTITION_PROBE_MS = 1000;
/** How long a probe that must succeed may take. */
const PROBE_MS = 5000;
/** A slow link's rate in the test, and the asset fetched through it (8.6 kB, beyond tbf's bucket). */
const SLOW_RATE_KBIT = 64;
const ASSET = "/explorer/views.js";

/** The names of the root namespace's interfaces, and its nft tables: what the harness must not touch. */
function rootNamespaceState(): { links: string; tables: string } {
  const links = execFileSync("ip", ["-o", "link", "show"], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.split(":")[1]?.trim())
    .join(" ");
  return { links, tables: execFileSync("nft", ["list", "tables"], { encoding: "utf8" }) };
}

function namespacesNow(): string[] {
  return execFileSync("ip", ["netns", "list"], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.split(" ")[0]!);
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

describe("the network test harness", { skip: networkTestSkip(), timeout: 60_000 }, () => {
  let rootBefore: ReturnType<typeof rootNamespaceState>;
  let net: TestNetwork;
  const nodes: Record<string, NetNode> = {};

  before(async () => {
    rootBefore = rootNamespaceState();
    net = await TestNetwork.create(["a", "b", "c"]);
    await Promise.all(
      ["a", "b", "c"].map(async (host) => {
        nodes[host] = await net.startNode(host, { args: ["--mining", "on-demand"] });
      }),
    );
  });
  after(() => net?.close());

  it("each node listens on its own namespace address and answers the test's fetch there", async () => {
    for (const host of ["a", "b", "c"]) {
      const address = net.host(host).address;
      assert.match(address, /^10\.77\.\d+\.\d+$/);
      assert.equal(nodes[host]!.url, `http://${address}:${DEFAULT_NODE_PORT}`);
      assert.equal(nodes[host]!.peer, `${address}:${DEFAULT_NODE_PORT}`);
      const response = await fetch(`${nodes[host]!.url}/info`);
      assert.equal(response.status, 200);
      assert.equal(
        ((await response.json()) as { nodeNumberOfChains: number }).nodeNumberOfChains,
        20,
      );
    }
  });

  it("@kadena/client in the test reaches a node in a namespace", async () => {
    const result = await clientFor(nodes["b"]!.url, "pact").local(readCommand("(+ 1 2)"), {
      preflight: false,
      signatureVerification: false,
    });
    assert.deepEqual(result.result, { status: "success", data: { int: 3 } });
  });

  it("a node's host reaches the node on another host", async () => {
    assert.equal(await net.fetchFrom("a", `${nodes["b"]!.url}/info`, PROBE_MS), 200);
    assert.equal(await net.fetchFrom("b", `${nodes["a"]!.url}/info`, PROBE_MS), 200);
  });

  it("partition([a], [b]) cuts a and b off from each other, both ways, until heal()", async () => {
    await net.partition(["a"], ["b"]);
    const cutOff = await timed(() =>
      assert.rejects(
        net.fetchFrom("a", `${nodes["b"]!.url}/info`, PARTITION_PROBE_MS),
        /timeout|aborted/i,
      ),
    );
    assert.ok(cutOff < PARTITION_PROBE_MS + 2000, `the probe took ${cutOff} ms`);
    await assert.rejects(net.fetchFrom("b", `${nodes["a"]!.url}/info`, PARTITION_PROBE_MS));
    // Only a and b are parted: c reaches both, and so does the test (through the hub).
    assert.equal(await net.fetchFrom("c", `${nodes["a"]!.url}/info`, PROBE_MS), 200);
    assert.equal(await net.fetchFrom("c", `${nodes["b"]!.url}/info`, PROBE_MS), 200);
    assert.equal((await fetch(`${nodes["b"]!.url}/info`)).status, 200);

    await net.heal();
    assert.equal(await net.fetchFrom("a", `${nodes["b"]!.url}/info`, PROBE_MS), 200);
    assert.equal(await net.fetchFrom("b", `${nodes["a"]!.url}/info`, PROBE_MS), 200);
    assert.equal(await net.exec("a", "nft", ["list", "tables"]), "");
  });

  it("slowLink(c, rate) slows a transfer from c until clearSlowLink(c)", async () => {
    const url = `${nodes["c"]!.url}${ASSET}`;
    const fetchAsset = async () =>
      assert.equal((await (await fetch(url)).text()).length > 8000, true);
    await fetchAsset();
    const fast = await timed(fetchAsset);
    await net.slowLink("c", { rateKbit: SLOW_RATE_KBIT });
    const slow = await timed(fetchAsset);
    await net.clearSlowLink("c");
    const fastAgain = await timed(fetchAsset);
    // 8.6 kB less the 4 kB bucket at 8 kB/s: at least half a second.
    assert.ok(slow >= 400, `slowed: ${slow} ms (full speed: ${fast} ms)`);
    assert.ok(fastAgain < 200, `after clearSlowLink: ${fastAgain} ms`);
  });

  it("slowLink(c, delay) delays every round trip (where the kernel has netem)", async (t) => {
    try {
      await net.slowLink("c", { delayMs: 200 });
    } catch (e) {
      if (e instanceof NetemUnavailable) return t.skip(e.message);
      throw e;
    }
    try {
      // 200 ms on the way in (the hub's end) and 200 ms on the way out (c's end).
      const roundTrip = await timed(() => fetch(`${nodes["c"]!.url}/info`).then((r) => r.text()));
      assert.ok(roundTrip >= 400, `${roundTrip} ms`);
    } finally {
      await net.clearSlowLink("c");
    }
  });

  it("a node killed with kill -9 restarts on the same address with its data", async () => {
    const node = nodes["c"]!;
    assert.deepEqual(await node.kill9(), { code: null, signal: "SIGKILL" });
    await assert.rejects(fetch(`${node.url}/info`));
    await node.restart();
    await node.waitForLog(/^Braid node ready in \d+ ms$/);
    assert.equal((await fetch(`${node.url}/info`)).status, 200);
  });

  it("after close() nothing of the network is left, and the root namespace is as it was", async () => {
    const small = await TestNetwork.create(["x", "y"]);
    const node = await small.startNode("x", { args: ["--mining", "on-demand"] });
    await small.partition(["x"], ["y"]);
    await small.slowLink("y", { rateKbit: SLOW_RATE_KBIT });
    const namespaces = small.namespaces();
    assert.ok(namespaces.every((ns) => namespacesNow().includes(ns)));
    await small.close();
    assert.deepEqual(
      namespacesNow().filter((ns) => namespaces.includes(ns)),
      [],
    );
    assert.notEqual(node.process.child.signalCode, null);
    assert.equal(existsSync(node.dataDir), false);
    assert.deepEqual(rootNamespaceState(), rootBefore);
  });

  it("the namespaces of a killed earlier run are removed when a network is made", async () => {
    const script = `import(${JSON.stringify(new URL("./support/netns.ts", import.meta.url).href)}).then(async ({ TestNetwork }) => console.log((await TestNetwork.create(["z"])).namespaces().join(" ")))`;
    const child = spawn(process.execPath, ["--import", "tsx", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve) =>
      child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8").trim())),
    );
    const stale = line.split(" ");
    assert.ok(
      stale.every((ns) => ns.startsWith(`${NAMESPACE_PREFIX}-${child.pid}-`)),
      line,
    );
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    assert.ok(
      stale.every((ns) => namespacesNow().includes(ns)),
      "the killed run left its namespaces",
    );

    const next = await TestNetwork.create(["w"]);
    await next.close();
    assert.deepEqual(
      namespacesNow().filter((ns) => stale.includes(ns)),
      [],
    );
  });
});
