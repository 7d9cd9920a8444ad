/**
 * A development revert survives a crash: a node process mines, takes a snapshot, mines more and
 * reverts to the snapshot through `/braid/dev/…`, is killed with SIGKILL, and after a restart on
 * the same data directory still has the reverted head, the abandoned blocks still listed.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { startNode } from "../support/node-process.ts";

describe("a revert survives a crash (kill -9) of the node", () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-dev-crash-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps the reverted head after a restart, the orphans still listed", async () => {
    const control = async (url: string, name: string, body: object) => {
      const response = await fetch(`${url}/braid/dev/${name}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 200, await response.clone().text());
      // biome-ignore lint/suspicious/noExplicitAny: the test reads the answers field by field
      return (await response.json()) as any;
    };
    const chain0 = async (url: string) => {
      const response = await fetch(`${url}/chainweb/0.0/development/cut`);
      const cut = (await response.json()) as {
        hashes: Record<string, { height: number; hash: string }>;
      };
      return cut.hashes["0"]!;
    };
    const first = await startNode({ dataDir: dir });
    let snapshotHead: { height: number; hash: string };
    try {
      await control(first.url, "mine", { blocks: 3, chains: [0] });
      const { id } = await control(first.url, "snapshot", {});
      await control(first.url, "mine", { blocks: 5, chains: [0] });
      assert.equal((await chain0(first.url)).height, 8);
      const reverted = await control(first.url, "revert", { id });
      snapshotHead = reverted.heads["0"];
      assert.equal(snapshotHead.height, 3);
      assert.deepEqual(await chain0(first.url), snapshotHead);
    } finally {
      await first.kill();
    }
    const second = await startNode({ dataDir: dir });
    try {
      assert.deepEqual(await chain0(second.url), snapshotHead);
      const response = await fetch(
        `${second.url}/chainweb/0.0/development/chain/0/hash?minheight=4`,
      );
      const page = (await response.json()) as { items: string[] };
      assert.equal(page.items.length, 5, "the orphans at heights 4 to 8 are still listed");
    } finally {
      await second.stop();
    }
  });
});
