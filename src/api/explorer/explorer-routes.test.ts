/**
 * The explorer's files and JSON endpoints against an in-process node whose blocks the test
 * makes: a transfer from sender00 to sender01 in block 1 of chain 0, then every answer checked
 * field by field, and each refusal's status and text.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { cutHeight, cutWeight } from "../../chain/cut/cut.ts";
import { Random } from "../../chain/test-support/random.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import type { BraidNode } from "../../node/node.ts";
import { DEV_ACCOUNTS } from "../../node/ports.ts";
import { cap, devCommand, GAS_CAP, manualNode } from "../../node/test-support/dev-node.ts";
import { JsonNumber } from "../../pact/values/index.ts";
import type { RunningNodeServer } from "../service/server.ts";
import { serveForTest } from "../service/test-support/test-server.ts";

describe("explorer files and endpoints", () => {
  let node: BraidNode;
  let server: RunningNodeServer;
  const faults: unknown[] = [];
  let requestKey = "";
  let blockHash = "";
  let blockWeight = "";
  let blockTarget = "";
  /** The transfer's block height: 2, after the block an idle chain gets first (docs/node.md). */
  let height = 0;
  const get = (path: string) => fetch(`${server.url}${path}`);
  // biome-ignore lint/suspicious/noExplicitAny: the tests read the JSON answers field by field
  const json = async (path: string): Promise<any> => {
    const response = await get(path);
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
    return response.json();
  };
  const refusal = async (path: string, status: number, text: string) => {
    const response = await get(path);
    assert.equal(response.status, status);
    assert.equal(response.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(await response.text(), text);
  };

  before(async () => {
    node = manualNode();
    const transfer = devCommand({
      code: '(coin.transfer "sender00" "sender01" 1.25)',
      caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber("1.25"))],
      nonce: "explorer-routes",
    });
    requestKey = node.commands.submit(0, [transfer])[0]!;
    const block = node.producer.mine(0);
    blockHash = encodeBase64Url(block.header.hash);
    blockWeight = block.header.weight.toString();
    blockTarget = block.header.target.toString();
    height = block.header.height;
    node.producer.level();
    server = await serveForTest(node, faults);
  });
  after(async () => {
    await server.close();
    node.close();
    assert.deepEqual(faults, []);
  });

  it("serves the page at / and its files, with a policy that allows this origin only", async () => {
    const page = await get("/");
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    assert.match(
      page.headers.get("content-security-policy") ?? "",
      /^default-src 'self'; script-src 'self';/,
    );
    assert.match(await page.text(), /<script type="module" src="\/explorer\/app.js"><\/script>/);
    const script = await get("/explorer/app.js");
    assert.equal(script.headers.get("content-type"), "text/javascript; charset=utf-8");
    await refusal("/explorer/nothing.js", 404, "the explorer has no file nothing.js");
    await refusal(
      "/explorer/..%2Fexplorer-api.ts",
      404,
      "the explorer has no file ../explorer-api.ts",
    );
  });

  it("answers a command by request key with its block, command, result and events", async () => {
    const tx = await json(`/braid/api/tx/${requestKey}`);
    assert.equal(tx.requestKey, requestKey);
    assert.equal(tx.chain, 0);
    assert.equal(tx.height, height);
    assert.equal(tx.blockHash, blockHash);
    assert.equal(tx.position, 0);
    assert.equal(tx.onBranch, true);
    assert.equal(tx.command.cmd.payload.exec.code, '(coin.transfer "sender00" "sender01" 1.25)');
    assert.equal(tx.command.cmd.meta.sender, "sender00");
    assert.deepEqual(tx.result.result, { status: "success", data: "Write succeeded" });
    assert.deepEqual(tx.result.events[0].params, ["sender00", "sender01", 1.25]);
    assert.deepEqual(tx.continuations, []);
    assert.equal(tx.pactOrigin, null);
    await refusal(
      `/braid/api/tx/${"A".repeat(43)}`,
      404,
      `no command ${"A".repeat(43)} is in a stored block`,
    );
    await refusal(
      "/braid/api/tx/nope",
      400,
      'request key must be a request key (43 characters of unpadded base64url encoding 32 bytes), got the string "nope": it has 4 characters, not 43',
    );
  });

  it("answers a block by hash with its commands decoded, the header naming its network both ways", async () => {
    const block = await json(`/braid/api/block/${blockHash}`);
    assert.equal(block.chain, 0);
    assert.equal(block.height, height);
    assert.equal(block.hash, blockHash);
    assert.equal(block.onBranch, true);
    assert.equal(block.weight, blockWeight);
    assert.equal(block.target, blockTarget);
    assert.equal(block.header.hash, blockHash);
    assert.equal(block.header.chainwebVersion, "development");
    assert.equal(block.header.chainVersion, "development");
    assert.equal(block.transactions.length, 1);
    assert.equal(block.transactions[0].command.hash, requestKey);
    assert.equal(block.minerData.account, node.options.mining.miner.account);
    assert.equal(block.coinbase.result.status, "success");
    assert.deepEqual(block.children, [], "the head of chain 0 has no children yet");
    await refusal(
      `/braid/api/block/${"A".repeat(43)}`,
      404,
      `no block ${"A".repeat(43)} is stored`,
    );
    await refusal(
      "/braid/api/block/xyz",
      400,
      'block hash "xyz": invalid base64url: trailing bits are not zero',
    );
  });

  it("answers an account's balance on every chain and its transfers", async () => {
    const account = await json("/braid/api/account/sender01");
    assert.equal(account.account, "sender01");
    assert.deepEqual(
      account.chains.map((c: { chain: number }) => c.chain),
      [...Array(20).keys()],
    );
    assert.equal(account.chains[0].result.result.data.balance, 110000001.25);
    assert.equal(account.chains[1].result.result.data.balance, 110000000);
    assert.equal(account.total, "2200000001.25");
    assert.deepEqual(account.guard, {
      keys: [DEV_ACCOUNTS[1]!.publicKey],
      pred: "keys-all",
    });
    assert.deepEqual(account.transfers[0], {
      chain: 0,
      height,
      blockHash,
      requestKey,
      sender: "sender00",
      receiver: "sender01",
      amount: 1.25,
      onBranch: true,
    });
    // Then the genesis funding on each chain, in chain order.
    assert.equal(account.transfers.length, 21);
    assert.deepEqual(
      account.transfers
        .slice(1)
        .map((t: { chain: number; height: number; sender: string; amount: number }) => [
          t.chain,
          t.height,
          t.sender,
          t.amount,
        ]),
      [...Array(20).keys()].map((c) => [c, 0, "", 110000000]),
    );
    const nobody = await json("/braid/api/account/nobody");
    assert.equal(nobody.chains[0].result.result.status, "failure");
    assert.deepEqual([nobody.total, nobody.guard], [null, null]);
    assert.deepEqual(nobody.transfers, []);
    await refusal(
      `/braid/api/account/${"a".repeat(257)}`,
      400,
      "an account name has 1 to 256 characters, got 257",
    );
  });

  it("resolves a search text to a block, a command or an account", async () => {
    assert.deepEqual(await json(`/braid/api/search?q=${blockHash}`), {
      kind: "block",
      hash: blockHash,
    });
    assert.deepEqual(await json(`/braid/api/search?q=0/${height}`), {
      kind: "block",
      hash: blockHash,
    });
    assert.deepEqual(await json(`/braid/api/search?q=${requestKey}`), {
      kind: "transaction",
      requestKey,
    });
    assert.deepEqual(await json("/braid/api/search?q=%20sender00%20"), {
      kind: "account",
      account: "sender00",
    });
    await refusal(
      "/braid/api/search?q=0/9",
      404,
      `chain 0 has no block at height 9 (its head is at ${height})`,
    );
    await refusal("/braid/api/search?q=20/1", 404, "no chain 20: the chains are 0 to 19");
    await refusal("/braid/api/search?q=%20", 400, "the search text is empty");
    await refusal("/braid/api/search", 400, "give the search text once, as ?q=");
    await refusal("/braid/api/search?q=a&q=b", 400, "give the search text once, as ?q=");
  });

  it("answers a module: its outline from its code, and on each chain its hash and the transaction that deployed it", async () => {
    const coin = await json("/braid/api/module/coin");
    assert.equal(coin.module, "coin");
    assert.deepEqual(coin.interfaces, ["fungible-v2", "fungible-xchain-v1"]);
    assert.match(coin.code, /^\(module coin GOVERNANCE/);
    assert.deepEqual(coin.outline.governance, { kind: "capability", name: "GOVERNANCE" });
    assert.deepEqual(
      coin.outline.functions.find((f: { name: string }) => f.name === "transfer"),
      {
        name: "transfer",
        kind: "defun",
        params: [
          { name: "sender", type: "string" },
          { name: "receiver", type: "string" },
          { name: "amount", type: "decimal" },
        ],
        returns: "string",
        doc: null,
      },
    );
    assert.deepEqual(
      coin.outline.capabilities.find((c: { name: string }) => c.name === "TRANSFER").managed,
      "amount TRANSFER-mgr",
    );
    assert.deepEqual(
      coin.outline.tables.map((t: { name: string; schema: string }) => [t.name, t.schema]),
      [
        ["coin-table", "coin-schema"],
        ["allocation-table", "allocation-schema"],
      ],
    );
    assert.deepEqual(coin.outline.tables[0].fields, [
      { name: "balance", type: "decimal" },
      { name: "guard", type: "guard" },
    ]);
    assert.deepEqual(
      coin.chains.map((c: { chain: number }) => c.chain),
      [...Array(20).keys()],
    );
    for (const { chain, hash, deployedBy } of coin.chains) {
      assert.equal(hash, coin.hash);
      const genesis = encodeBase64Url(
        node.chainDb.ancestorHashAt(node.chains[chain]!.head.hash, 0)!,
      );
      assert.deepEqual([deployedBy.blockHash, deployedBy.height], [genesis, 0], `chain ${chain}`);
      const tx = await json(`/braid/api/tx/${deployedBy.requestKey}`);
      assert.match(tx.command.cmd.payload.exec.code, /\(module coin GOVERNANCE/);
    }
    await refusal(
      "/braid/api/module/free.nothing",
      404,
      "no module free.nothing is deployed on any chain (chain 0: Cannot find module: free.nothing)",
    );
    await refusal(
      "/braid/api/module/a%20b",
      400,
      'not a module name (name or namespace.name): "a b"',
    );
    assert.deepEqual(await json("/braid/api/search?q=coin"), { kind: "module", module: "coin" });
    assert.deepEqual(await json("/braid/api/search?q=fungible-v2"), {
      kind: "module",
      module: "fungible-v2",
    });
  });

  it("lists the latest blocks holding commands, and each chain's pending commands", async () => {
    const withTransactions = await json("/braid/api/blocks/with-transactions");
    assert.equal(withTransactions.scannedPerChain, 100);
    // The transfer's block, then the genesis blocks (the same creation time) in chain order.
    assert.deepEqual(withTransactions.blocks[0], {
      chain: 0,
      height,
      hash: blockHash,
      creationTime: node.chainDb.header(node.chains[0]!.head.hash)!.creationTime,
      txCount: 1,
    });
    assert.deepEqual(
      withTransactions.blocks
        .slice(1)
        .map((b: { chain: number; height: number }) => [b.chain, b.height]),
      [...Array(20).keys()].map((c) => [c, 0]),
    );
    const pendingKey = node.commands.submit(3, [
      devCommand({ code: "(+ 1 2)", caps: [GAS_CAP], nonce: "explorer-mempool", chainId: "3" }),
    ])[0]!;
    const mempool = await json("/braid/api/mempool");
    assert.deepEqual(
      mempool.map((c: { chain: number; pending: number }) => [c.chain, c.pending]),
      [...Array(20).keys()].map((c) => [c, c === 3 ? 1 : 0]),
    );
    assert.equal(mempool[3].commands[0].hash, pendingKey);
    assert.equal(mempool[3].commands[0].cmd.payload.exec.code, "(+ 1 2)");
  });

  it("lists the latest blocks of all chains, newest first", async () => {
    const recent = await json("/braid/api/blocks/recent");
    assert.equal(recent.length, 40);
    const times = recent.map((b: { creationTime: number }) => b.creationTime);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
    const ours = recent.find((b: { hash: string }) => b.hash === blockHash);
    assert.deepEqual(ours, {
      chain: 0,
      height,
      hash: blockHash,
      creationTime: node.chainDb.header(node.chains[0]!.head.hash)!.creationTime,
      txCount: 1,
    });
  });
  it("answers no address and no peers for a node without a P2P network, and /info has no braidPeers", async () => {
    const peers = await json("/braid/api/peers");
    const cut = node.ports.heads.cut();
    assert.deepEqual(peers, {
      address: null,
      cutHeight: cutHeight(cut),
      cutWeight: cutWeight(cut).toString(),
      peers: [],
    });
    assert.equal(peers.cutHeight, 40, "every chain at the transfer's height");
    assert.equal("braidPeers" in (await json("/info")), false);
  });
  it("answers random and hostile inputs with 200, 400 or 404, never a fault", async () => {
    const random = new Random(0x14e);
    const pieces = [
      blockHash,
      requestKey,
      "sender00",
      "0/1",
      "19/0",
      "%00",
      "%ZZ",
      "..%2F..%2F",
      "k:",
      "\u00e9\u{1f600}",
      "a".repeat(300),
      "=",
      "/",
      "%2F",
    ];
    const text = () => {
      let out = "";
      for (let i = random.int(3); i >= 0; i--) {
        out +=
          random.int(2) === 0
            ? pieces[random.int(pieces.length)]!
            : encodeBase64Url(random.bytes(random.int(40)));
      }
      return out;
    };
    const paths = [
      (t: string) => `/braid/api/tx/${t}`,
      (t: string) => `/braid/api/block/${t}`,
      (t: string) => `/braid/api/account/${t}`,
      (t: string) => `/braid/api/search?q=${t}`,
      (t: string) => `/braid/api/module/${t}`,
      (t: string) => `/explorer/${t}`,
    ];
    const statuses = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const path = paths[i % paths.length]!(text());
      // Non-ASCII is percent-encoded; the pieces' own percent sequences (%ZZ, %00) stay raw.
      const response = await fetch(`${server.url}${encodeURI(path).replace(/%25/g, "%")}`);
      await response.arrayBuffer();
      assert.ok([200, 400, 404].includes(response.status), `${path}: ${response.status}`);
      statuses.add(response.status);
    }
    assert.deepEqual([...statuses].sort(), [200, 400, 404]);
    assert.deepEqual(faults, []);
  });
});
