/**
 * Issue #24, item 2: a full disk. The node's data directory is on a small tmpfs; during a burst
 * of transfers through HTTP the disk is filled to the last byte, then given space again. While
 * it is full, writes are refused with the documented 503 ("disk full") and reads keep working;
 * no other 5xx is ever answered; once there is space the node makes blocks again; and after a
 * clean stop, a restart finds every result the node reported, and mines again. (It used to answer
 * 500 and 400 "Unknown exception: database or disk is full", log "flush inside a transaction"
 * five times a second, and refuse every restart: "replaying block … gave other outputs".)
 *
 * Mounting a tmpfs needs root (CI runs as root); elsewhere the test is skipped, saying why.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { encodeCommandJson, encodeSubmitBatch } from "../../src/command/index.ts";
import { checkReported, type Reported } from "../crash/support/reported.ts";
import { localCommand, post, transferCommand } from "../crash/support/requests.ts";
import { fillDisk } from "../support/fill-disk.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

/** The tmpfs the data directory lives on. */
const DISK_BYTES = 64 * 1024 * 1024;
/** The chains the transfers go to. */
const CHAINS = [0, 7, 13] as const;
/** Concurrent client loops of the burst. */
const WORKERS = 4;
/** Results reported before the disk is filled, and after space is back. */
const RESULTS_PER_PHASE = 6;
/** Refusals seen while the disk is full before space is given back. */
const REFUSALS_WHILE_FULL = 8;
/** The longest each phase may take (ms). */
const PHASE_MS = 60_000;

/** Every answer of the node during the burst, by status (and the 503's first words). */
type Answers = Map<string, number>;

const count = (answers: Answers, what: string) => answers.set(what, (answers.get(what) ?? 0) + 1);

let nonce = 0;

/** A transfer sent: its chain and command, or null when the node refused it. */
async function sendTransfer(node: NodeProcess, answers: Answers) {
  const n = nonce++;
  const chainId = CHAINS[n % CHAINS.length]!;
  const command = transferCommand(n % 5, (n + 1) % 5, `${1 + (n % 7)}.5`, chainId, `full ${n}`);
  const sent = await post(`${node.api(chainId)}/send`, encodeSubmitBatch([command]));
  count(answers, `send ${sent.status}${sent.status === 503 ? ` ${sent.text.split(":")[0]}` : ""}`);
  if (sent.status === 503) return null;
  assert.equal(sent.status, 200, `send: ${sent.status} ${sent.text}`);
  return { chainId, key: command.hash };
}

/** The result of a transfer the node took, listened for; it must have succeeded. */
async function listenFor(
  node: NodeProcess,
  answers: Answers,
  sent: { chainId: number; key: string },
): Promise<Reported> {
  const listened = await post(
    `${node.api(sent.chainId)}/listen`,
    JSON.stringify({ listen: sent.key }),
  );
  count(answers, `listen ${listened.status}`);
  assert.equal(listened.status, 200, `listen: ${listened.status} ${listened.text}`);
  const result = JSON.parse(listened.text) as { result: { status: string } };
  assert.equal(result.result.status, "success", listened.text);
  return { ...sent, text: listened.text };
}

/** One transfer: sent, then listened for when the node took it (null when it was refused). */
async function transfer(node: NodeProcess, answers: Answers): Promise<Reported | null> {
  const sent = await sendTransfer(node, answers);
  return sent === null ? null : listenFor(node, answers, sent);
}

/** Resolves once `done()` holds, checking every 50 ms; throws after `ms`. */
async function until(what: string, ms: number, done: () => boolean): Promise<void> {
  const deadline = performance.now() + ms;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test("a full disk: 503 for writes, reads go on, blocks resume with space, a restart keeps every result", {
  timeout: 300_000,
}, async (t) => {
  const mount = mkdtempSync(join(tmpdir(), "braid-full-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${DISK_BYTES}`, "tmpfs", mount], {
    encoding: "utf8",
  });
  if (mounted.status !== 0) {
    rmSync(mount, { recursive: true, force: true });
    t.skip(
      `cannot mount a tmpfs here (${(mounted.stderr || String(mounted.error)).trim()}): needs root`,
    );
    return;
  }
  const dir = join(mount, "data");
  let node: NodeProcess | null = null;
  try {
    node = await startNode({ dataDir: dir });
    const running = node;
    const answers: Answers = new Map();
    const reported: Reported[] = [];
    let refused = 0;
    let stop = false;
    const failures: unknown[] = [];
    const loop = async () => {
      while (!stop) {
        try {
          const result = await transfer(running, answers);
          if (result === null) {
            refused++;
            await new Promise((resolve) => setTimeout(resolve, 50));
          } else reported.push(result);
        } catch (e) {
          failures.push(e);
          return;
        }
      }
    };
    const workers = Array.from({ length: WORKERS }, loop);
    const healthy = () => failures.length === 0;

    await until(
      "results before the disk fills",
      PHASE_MS,
      () => reported.length >= RESULTS_PER_PHASE || !healthy(),
    );
    const filler = fillDisk(mount);
    // The workers whose transfers were taken while the disk filled wait for their results until
    // there is space again (all of them, at times): the refusals are counted by sends of their own.
    const takenWhileFull: { chainId: number; key: string }[] = [];
    while (refused < REFUSALS_WHILE_FULL && healthy()) {
      const sent = await sendTransfer(running, answers);
      if (sent === null) refused++;
      else takenWhileFull.push(sent);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(
        takenWhileFull.length < PHASE_MS / 50,
        "the node refuses sends while the disk is full",
      );
    }
    // Reads go on while writes are refused.
    const cut = await fetch(`${running.url}/chainweb/0.0/development/cut`);
    assert.equal(cut.status, 200, await cut.text());
    await checkReported(running, reported, CHAINS);
    const local = await post(
      `${running.api(0)}/local`,
      encodeCommandJson(localCommand('(coin.get-balance "sender00")', 0, "full local")),
    );
    assert.equal(local.status, 200, local.text);
    const mine = await post(
      `${running.url}/braid/dev/mine`,
      JSON.stringify({ blocks: 1, chains: [0] }),
    );
    assert.equal(mine.status, 503, mine.text);
    assert.match(mine.text, /^disk full: /);

    rmSync(filler);
    const before = reported.length;
    await until(
      "results once there is space",
      PHASE_MS,
      () => reported.length >= before + RESULTS_PER_PHASE || !healthy(),
    );
    stop = true;
    await Promise.all(workers);
    for (const sent of takenWhileFull) reported.push(await listenFor(running, answers, sent));
    assert.deepEqual(failures, [], "every answer was a 200 or the documented 503");
    for (const what of answers.keys()) {
      assert.ok(
        ["send 200", "send 503 disk full", "listen 200"].includes(what),
        `answered ${what}`,
      );
    }
    assert.ok((answers.get("send 503 disk full") ?? 0) >= REFUSALS_WHILE_FULL);
    const output = node.output();
    assert.ok(!output.includes("internal error"), output);
    const storageLines = output.split("\n").filter((line) => line.includes("storage: "));
    t.diagnostic(`answers: ${JSON.stringify(Object.fromEntries(answers))}`);
    t.diagnostic(`log: ${storageLines.join(" | ")}`);
    assert.ok(
      storageLines.length <= 6,
      `the failure is logged once per episode:\n${storageLines.join("\n")}`,
    );

    const stopped = await node.stop();
    node = null;
    assert.equal(stopped.code, 0, "a clean stop");
    node = await startNode({ dataDir: dir });
    await checkReported(node, reported, CHAINS);
    const after = await transfer(node, new Map());
    assert.notEqual(after, null, "the restarted node mines");
  } finally {
    await node?.kill();
    spawnSync("umount", [mount]);
    rmSync(mount, { recursive: true, force: true });
  }
});
