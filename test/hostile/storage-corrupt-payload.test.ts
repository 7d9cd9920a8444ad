/**
 * Issue #24, item 7: payload bytes changed on the disk. Eight bytes overwritten in a chain's
 * payload log were served with the unchanged `payloadHash`, and nothing was logged. Now every
 * read checks the bytes against the checksum their row keeps: the API answers with an error
 * that says the stored payload is corrupted, never with the bytes, and the node logs it once.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { encodeSubmitBatch } from "../../src/command/index.ts";
import { post, transferCommand } from "../crash/support/requests.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

const CHAIN = 3;

test("corrupted payload bytes are refused with a clear error, logged once", {
  timeout: 90_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-corrupt-"));
  let node: NodeProcess | null = null;
  try {
    node = await startNode({ dataDir: dir });
    const command = transferCommand(0, 1, "1.5", CHAIN, "corrupt 1");
    const sent = await post(`${node.api(CHAIN)}/send`, encodeSubmitBatch([command]));
    assert.equal(sent.status, 200, sent.text);
    const listened = await post(
      `${node.api(CHAIN)}/listen`,
      JSON.stringify({ listen: command.hash }),
    );
    assert.equal(listened.status, 200, listened.text);
    const { blockHash } = (JSON.parse(listened.text) as { metaData: { blockHash: string } })
      .metaData;
    const base = `${node.url}/chainweb/0.0/development/chain/${CHAIN}`;
    const headerAnswer = await fetch(`${base}/header/${blockHash}`, {
      headers: { accept: "application/json;blockheader-encoding=object" },
    });
    const header = (await headerAnswer.json()) as { payloadHash: string };
    await node.stop();
    node = null;

    // Eight bytes of the transfer's code, in the middle of its block's payload record.
    const log = join(dir, "chain.sqlite-payloads", `${CHAIN}.log`);
    const bytes = readFileSync(log);
    const at = bytes.indexOf("coin.transfer");
    assert.ok(at > 0, "the transfer is in its chain's payload log");
    bytes.write("XXXXXXXX", at);
    writeFileSync(log, bytes);

    node = await startNode({ dataDir: dir });
    const payloadUrl = `${node.url}/chainweb/0.0/development/chain/${CHAIN}/payload/${header.payloadHash}/outputs`;
    for (let i = 0; i < 2; i++) {
      const served = await fetch(payloadUrl);
      const text = await served.text();
      assert.equal(served.status, 500, text);
      assert.equal(served.headers.get("content-type"), "text/plain; charset=utf-8");
      assert.match(text, /^the stored payload at \d+\.\.\d+ of chain 3's payload log is corrupted/);
      assert.ok(!text.includes("XXXXXXXX"), "the bytes are not served");
    }
    const polled = await post(
      `${node.api(CHAIN)}/poll`,
      JSON.stringify({ requestKeys: [command.hash] }),
    );
    assert.equal(polled.status, 500, polled.text);
    assert.match(polled.text, /payload log is corrupted/);
    const lines = node
      .output()
      .split("\n")
      .filter((line) => line.includes("is corrupted"));
    assert.equal(lines.length, 1, `logged once:\n${lines.join("\n")}`);
    assert.ok(!node.output().includes("internal error"), node.output());
  } finally {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
