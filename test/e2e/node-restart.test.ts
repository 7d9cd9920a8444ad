/**
 * End to end: a node with a data directory keeps everything across a restart (SIGTERM, start
 * again on the same directory): blocks, results, balances, deployed modules, and the duplicate
 * check; and it goes on making blocks on top.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { Pact } from "@kadena/client";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import {
  clientFor,
  endpoint,
  postJson,
  readCommand,
  SENDER00,
  SENDER01,
  signWith,
  transferCommand,
} from "./support/kadena.ts";

test("a restart keeps everything", { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "braid-e2e-restart-"));
  let node: NodeProcess | undefined;
  try {
    node = await startNode({ dataDir });
    assert.match(node.output(), /new network: genesis blocks made/);
    assert.ok(
      node.output().includes(`  explorer     ${node.url}/ `),
      "the banner names the explorer",
    );
    let client = clientFor(node.url, "pact", 1);
    const transfer = await signWith(SENDER00, transferCommand(SENDER00, SENDER01.name, "5.0"));
    const deploy = await signWith(
      SENDER00,
      Pact.builder
        .execution(
          '(namespace "free") (module kept GOV (defcap GOV () true) (defun answer:integer () 42))',
        )
        .addSigner(SENDER00.publicKey, (signFor) => [signFor("coin.GAS")])
        .setMeta({ chainId: "0", senderAccount: "sender00", gasLimit: 10_000 })
        .setNetworkId("development")
        .createTransaction(),
    );
    const [sent, deployed] = await client.submit([transfer, deploy]);
    const transferred = await client.pollOne(sent!, { timeout: 10_000, interval: 100 });
    assert.equal(transferred.result.status, "success");
    assert.equal((await client.listen(deployed!)).result.status, "success");
    const read = async (code: string) => {
      const r = await client.dirtyRead(readCommand(code));
      return r.result;
    };
    const balances = async () => [
      await read('(coin.get-balance "sender00")'),
      await read('(coin.get-balance "sender01")'),
    ];
    const before = await balances();
    assert.deepEqual(before[1], { status: "success", data: 110000005 });
    const headBefore = (await client.dirtyRead(readCommand("1"))).metaData!.blockHeight;
    // A listen still waiting when the node stops is told so at once.
    const unknownKey = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const waiting = postJson(endpoint(node.url, "listen"), { listen: unknownKey });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exit = await node.stop();
    assert.deepEqual(exit, { code: 0, signal: null });
    const listened = await waiting;
    assert.equal(listened.status, 503);
    assert.equal(listened.text, "the node is shutting down; listen again once it is back");

    node = await startNode({ dataDir });
    assert.doesNotMatch(node.output(), /new network/);
    client = clientFor(node.url, "pact", 1);
    assert.equal((await client.dirtyRead(readCommand("1"))).metaData!.blockHeight, headBefore);
    assert.deepEqual(await balances(), before);
    assert.deepEqual(await read("(free.kept.answer)"), { status: "success", data: { int: 42 } });
    // The results are still there, on both paths.
    assert.deepEqual(await client.getStatus(sent!), { [transfer.hash]: transferred });
    const viaContract = await clientFor(node.url, "contract").listen(sent!);
    assert.deepEqual(viaContract, transferred);
    // The transfer is still known to be on the chain.
    const again = await postJson(endpoint(node.url, "send"), { cmds: [transfer] });
    assert.equal(again.status, 400);
    assert.equal(
      again.text,
      `One or more transactions were invalid: Transaction "${transfer.hash}" at index 0 failed with: Transaction already exists on chain`,
    );
    // And new blocks go on top.
    const next = await signWith(SENDER00, transferCommand(SENDER00, SENDER01.name, "1.0"));
    const nextResult = await client.listen(await client.submitOne(next));
    assert.equal(nextResult.result.status, "success");
    assert.ok((nextResult.metaData!.blockHeight as number) >= (headBefore as number));
    assert.deepEqual(await read('(coin.get-balance "sender01")'), {
      status: "success",
      data: 110000006,
    });
  } finally {
    await node?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
