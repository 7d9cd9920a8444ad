/**
 * `braid dev …` run for real (child processes) against a running node (another process):
 * mine, time, snapshot, fund, revert, and the one-line errors of a refusal and of a node that
 * is not there.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { type AddressInfo, createServer } from "node:net";
import { after, before, describe, it } from "node:test";
import { builtCli } from "../support/built-cli.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

function braid(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [builtCli(), ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, BRAID_URL: undefined, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("braid dev", () => {
  let node: NodeProcess;
  const dev = (...args: string[]) => braid(["dev", ...args, "--node", node.url]);

  before(async () => {
    node = await startNode({ built: true });
  });
  after(async () => {
    await node?.stop();
  });

  it("mine, time, snapshot, fund, revert against a running node", async () => {
    assert.deepEqual(await dev("mine", "5", "--chains", "3,4"), {
      code: 0,
      stdout: "chain 3: height 5\nchain 4: height 5\n",
      stderr: "",
    });

    const time = await dev("time", "+1d");
    assert.equal(time.code, 0, time.stderr);
    assert.match(time.stdout, /^node time \S+Z \(86400 s ahead of this clock\)\n$/);

    assert.deepEqual(await dev("snapshot"), { code: 0, stdout: "1\n", stderr: "" });

    const key = "ef".repeat(32);
    const fund = await dev("fund", `k:${key}`, "--keys", key, "--amount", "10", "--chains", "0,1");
    assert.equal(fund.code, 0, fund.stderr);
    assert.match(fund.stdout, /^chain 0: [A-Za-z0-9_-]{43}\nchain 1: [A-Za-z0-9_-]{43}\n$/);
    const requestKey = fund.stdout.slice("chain 0: ".length, "chain 0: ".length + 43);
    const poll = await fetch(`${node.api(0)}/poll`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ requestKeys: [requestKey] }),
    });
    const results = (await poll.json()) as Record<string, { result: { status: string } }>;
    assert.equal(results[requestKey]?.result.status, "success", "mined at once (on-demand)");

    const revert = await dev("revert", "1");
    assert.equal(revert.code, 0, revert.stderr);
    assert.match(revert.stdout, /^reverted to snapshot 1: [1-9][0-9]* blocks orphaned\n$/);
    const after = await fetch(`${node.api(0)}/poll`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ requestKeys: [requestKey] }),
    });
    assert.deepEqual(await after.json(), {}, "the funding is gone with the revert");
  });

  it("prints the node's refusal as one line and exits 1", async () => {
    assert.deepEqual(await dev("revert", "7"), {
      code: 1,
      stdout: "",
      stderr:
        "braid: the node refused revert: there is no snapshot 7 (a revert deletes later snapshots)\n",
    });
    assert.deepEqual(await dev("time", "yesterday"), {
      code: 1,
      stdout: "",
      stderr:
        'braid: time must be a whole number of seconds or of s, m, h or d, e.g. +1d or 3600, got "yesterday"\n',
    });
  });

  it("steers the node BRAID_URL names when --node is not given", async () => {
    assert.deepEqual(await braid(["dev", "snapshot"], { BRAID_URL: node.url }), {
      code: 0,
      stdout: "2\n",
      stderr: "",
    });
  });

  it("says when no node answers", async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const url = `http://127.0.0.1:${port}`;
    assert.deepEqual(await braid(["dev", "snapshot", "--node", url]), {
      code: 1,
      stdout: "",
      stderr: `braid: cannot reach the node at ${url}: ECONNREFUSED\n`,
    });
  });
});
