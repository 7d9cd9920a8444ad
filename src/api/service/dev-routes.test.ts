/**
 * The development controls over HTTP (`/braid/dev/…`) against an in-process node: mining, a
 * revert whose orphaned block stays in the block and branch queries but leaves the best chain,
 * funding, and the 400s a bad body gets.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeBase64Url } from "../../crypto/index.ts";
import type { BraidNode } from "../../node/node.ts";
import { cap, devCommand, GAS_CAP, manualNode } from "../../node/test-support/dev-node.ts";
import { JsonNumber } from "../../pact/values/index.ts";
import type { RunningNodeServer } from "./server.ts";
import { serveForTest } from "./test-support/test-server.ts";

const b64 = encodeBase64Url;

describe("development control endpoints", () => {
  let node: BraidNode;
  let server: RunningNodeServer;
  const faults: unknown[] = [];
  const post = (path: string, body: string, type = "application/json") =>
    fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": type }, body });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read the JSON answers field by field
  const json = async (response: Response): Promise<any> => {
    assert.equal(response.status, 200, await response.clone().text());
    return response.json();
  };
  const base = "/chainweb/0.0/development/chain/0";

  before(async () => {
    node = manualNode();
    server = await serveForTest(node, faults);
  });
  after(async () => {
    await server.close();
    node.close();
    assert.deepEqual(faults, []);
  });

  it("mine: 100 blocks on chain 3 answer the new height", async () => {
    const answer = await json(await post("/braid/dev/mine", '{"blocks":100,"chains":[3]}'));
    assert.deepEqual(answer, { heights: { "3": 100 } });
  });

  it("snapshot, transfer, revert: the transfer's block is listed as an orphan, off the best chain", async () => {
    const { id } = await json(await post("/braid/dev/snapshot", ""));
    const snapshotHead = node.chains[0]!.head;
    const amount = "3.0";
    const tx = devCommand({
      code: `(coin.transfer "sender00" "sender01" ${amount})`,
      caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber(amount))],
      nonce: "http-revert",
    });
    node.commands.submit(0, [tx]);
    const orphan = node.producer.mine(0).header;
    const reverted = await json(await post("/braid/dev/revert", JSON.stringify({ id })));
    assert.equal(reverted.id, id);
    assert.deepEqual(reverted.heads["0"], {
      height: snapshotHead.height,
      hash: b64(snapshotHead.hash),
    });
    assert.equal(reverted.orphaned, 1);

    const page = await json(await fetch(`${server.url}${base}/block?minheight=${orphan.height}`));
    assert.deepEqual(
      page.items.map((item: { header: { hash: string } }) => item.header.hash),
      [b64(orphan.hash)],
    );
    const onOrphan = await json(
      await post(`${base}/block/branch`, JSON.stringify({ lower: [], upper: [b64(orphan.hash)] })),
    );
    assert.equal(onOrphan.items[0].header.hash, b64(orphan.hash));
    const next = node.producer.mine(0).header;
    const best = await json(
      await post(
        `${base}/block/branch?minheight=${orphan.height}`,
        JSON.stringify({ lower: [], upper: [b64(node.chains[0]!.head.hash)] }),
      ),
    );
    assert.deepEqual(
      best.items.map((item: { header: { hash: string } }) => item.header.hash),
      [b64(next.hash)],
    );
    assert.deepEqual(next.parent, snapshotHead.hash);
    assert.equal(node.commands.result(0, tx.hashBytes), null);
  });

  it("time and fund answer what they did", async () => {
    const time = await json(await post("/braid/dev/time", '{"seconds":3600}'));
    assert.equal(time.offsetSeconds, 3600);
    assert.ok(Date.parse(time.now) - Date.now() > 3_590_000, time.now);
    const key = "cd".repeat(32);
    const fund = await json(
      await post(
        "/braid/dev/fund",
        JSON.stringify({ account: `k:${key}`, keys: [key], chains: [1, 2] }),
      ),
    );
    assert.equal(fund.account, `k:${key}`);
    assert.deepEqual(Object.keys(fund.requestKeys), ["1", "2"]);
    assert.equal(
      node.chains[1]!.mempool.has(fund.requestKeys["1"]),
      true,
      "pending (interval mode)",
    );
  });

  it("moves x-server-timestamp with the node's clock", async () => {
    const timestamp = async () =>
      Number((await fetch(`${server.url}/info`)).headers.get("x-server-timestamp"));
    const before = await timestamp();
    await json(await post("/braid/dev/time", '{"seconds":86400}'));
    const after = await timestamp();
    assert.ok(after - before >= 86_400 && after - before <= 86_402, `${before} → ${after}`);
    assert.equal(after >= Math.floor(Date.now() / 1000) + node.clock.offsetSeconds - 1, true);
  });

  it("refuses bad bodies with a 400 naming the problem", async () => {
    const cases: [string, string, string][] = [
      ["/braid/dev/mine", '{"blocks":"x","chains":[0]}', '"blocks" must be an integer, got "x"'],
      [
        "/braid/dev/mine",
        '{"blocks":1,"chains":3}',
        '"chains" must be a list of chain ids (numbers), got 3',
      ],
      [
        "/braid/dev/mine",
        '{"blocks":1,"chains":[25]}',
        "no such chain: 25; the chains are 0 to 19",
      ],
      [
        "/braid/dev/mine",
        "[1]",
        'the request body must be a JSON object {"blocks": n, "chains": [c, …]}',
      ],
      [
        "/braid/dev/time",
        '{"seconds":0}',
        "time moves forward only: seconds must be a positive integer, got 0",
      ],
      [
        "/braid/dev/revert",
        '{"id":99}',
        "there is no snapshot 99 (a revert deletes later snapshots)",
      ],
      [
        "/braid/dev/fund",
        '{"account":"bob","keys":["zz"]}',
        'a key must be 64 lowercase hex digits (an ED25519 public key), got "zz"',
      ],
      ["/braid/dev/fund", '{"keys":[]}', '"account" must be a string, got nothing'],
    ];
    for (const [path, body, message] of cases) {
      const response = await post(path, body);
      assert.equal(response.status, 400, `${path} ${body}`);
      assert.match(response.headers.get("content-type")!, /^text\/plain/);
      assert.equal(await response.text(), message);
    }
    const wrongType = await post("/braid/dev/snapshot", "x", "text/plain");
    assert.equal(wrongType.status, 400);
  });
});
