/**
 * `send` (and `private`) under on-demand mining answers once its commands are in a block, so the
 * first `poll` after it finds every result (as Hardhat's automine does); commands that need two
 * blocks (more gas than one block holds) are answered after the second. `rewindDepth` and
 * `confirmationDepth` take any integer >= 0.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DEV_ACCOUNTS } from "../../node/genesis/accounts.ts";
import { makeLogger } from "../../node/logger.ts";
import { BraidNode } from "../../node/node.ts";
import { resolveNodeOptions } from "../../node/options.ts";
import { cap, devCommand, GAS_CAP } from "../../node/test-support/dev-node.ts";
import { JsonNumber } from "../../pact/values/index.ts";
import { ContractApi } from "./contract-api.ts";
import type { RunningNodeServer } from "./server.ts";
import { postJson, serveForTest, wireCommand } from "./test-support/test-server.ts";

describe("the contract API of an on-demand node", () => {
  let node: BraidNode;
  let server: RunningNodeServer;
  let pact: string;
  const faults: unknown[] = [];

  before(async () => {
    node = BraidNode.open(
      resolveNodeOptions({ inMemory: true, mining: "on-demand" }, {}),
      makeLogger("error"),
    );
    server = await serveForTest(node, faults);
    pact = `${server.url}/chainweb/0.0/development/chain/0/pact/api/v1`;
  });
  after(async () => {
    await server.close();
    node.close();
    assert.deepEqual(faults, []);
  });

  describe("send under on-demand mining", () => {
    const post = (path: string, body: unknown) => postJson(`${pact}/${path}`, body);
    const transfer = (nonce: string, gasLimit = 2_000) => {
      const [from, to] = [DEV_ACCOUNTS[0]!.name, DEV_ACCOUNTS[1]!.name];
      return devCommand({
        code: `(coin.transfer "${from}" "${to}" 1.0)`,
        nonce,
        gasLimit,
        caps: [GAS_CAP, cap("coin.TRANSFER", from, to, new JsonNumber("1.0"))],
      });
    };

    it("resolves send only once the result is stored", async () => {
      // Without HTTP in between, nothing else gives the miner a turn before `send` resolves.
      const api = new ContractApi(node.ports, 5_000);
      try {
        const command = transfer("resolved after the block");
        await api.send(0, JSON.stringify({ cmds: [wireCommand(command)] }));
        assert.notEqual(node.commands.result(0, command.hashBytes), null);
      } finally {
        api.close();
      }
    });

    it("resolves private only once the result is stored", async () => {
      const api = new ContractApi(node.ports, 5_000);
      try {
        // Signed by sender00, the development network's entity.
        const command = devCommand({
          code: "(+ 1 2)",
          nonce: "private resolved after the block",
          privateMeta: { kind: "private", address: { from: "Alice", to: ["Bob"] } },
        });
        await api.private(0, JSON.stringify(wireCommand(command)));
        assert.notEqual(node.commands.result(0, command.hashBytes), null);
      } finally {
        api.close();
      }
    });

    it("answers a batch that needs two blocks after the second", async () => {
      // 100,000 gas each: the default block gas limit (150,000) holds one of them.
      const commands = [transfer("big 1", 100_000), transfer("big 2", 100_000)];
      const heightBefore = node.chains[0]!.head.height;
      const sent = await post("send", { cmds: commands.map(wireCommand) });
      assert.deepEqual(
        sent.requestKeys,
        commands.map((c) => c.hash),
      );
      const polled = await post("poll", { requestKeys: sent.requestKeys });
      const heights = commands.map((c) => polled[c.hash].metaData.blockHeight);
      assert.deepEqual(heights, [heightBefore + 1, heightBefore + 2]);
    });
  });

  describe("rewindDepth and confirmationDepth", () => {
    const post = (path: string, body: unknown) =>
      fetch(`${pact}/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    it("refuses a rewindDepth past genesis with a 400 saying how deep the chain is", async () => {
      const read = wireCommand(devCommand({ code: "(+ 1 2)", nonce: "rewind" }));
      const height = node.chains[0]!.head.height;
      const atGenesis = await post(`local?rewindDepth=${height}`, read);
      assert.equal(atGenesis.status, 200);
      assert.equal(
        ((await atGenesis.json()) as { metaData: { blockHeight: number } }).metaData.blockHeight,
        1,
      );
      for (const depth of [String(height + 1), "481", "99999999999999999999999999"]) {
        const past = await post(`local?rewindDepth=${depth}`, read);
        assert.equal(past.status, 400);
        assert.equal(past.headers.get("content-type"), "text/plain; charset=utf-8");
        assert.equal(
          await past.text(),
          `rewindDepth ${depth} is past genesis: chain 0 is at height ${height}`,
        );
      }
    });

    it("answers a confirmationDepth deeper than the chain with no result yet, mining nothing", async () => {
      const command = devCommand({ code: "(+ 1 2)", nonce: "confirmations" });
      await postJson(`${pact}/send`, { cmds: [wireCommand(command)] });
      const height = node.chains[0]!.head.height;
      for (const depth of ["481", "9007199254740993", "1".repeat(400)]) {
        const polled = await post(`poll?confirmationDepth=${depth}`, {
          requestKeys: [command.hash],
        });
        assert.equal(polled.status, 200);
        assert.equal(await polled.text(), "{}");
      }
      assert.equal(node.chains[0]!.head.height, height, "no block mined for those depths");
      const confirmed = await postJson(`${pact}/poll?confirmationDepth=1`, {
        requestKeys: [command.hash],
      });
      assert.deepEqual(confirmed[command.hash].result.data, { int: 3 });
    });

    it("refuses a depth that is not an integer >= 0 with a 400 naming it", async () => {
      const cases: [string, string][] = [
        [
          "local?rewindDepth=-1",
          'the query parameter rewindDepth must be an integer >= 0, got "-1"',
        ],
        [
          "local?rewindDepth=1.5",
          'the query parameter rewindDepth must be an integer >= 0, got "1.5"',
        ],
        [
          "local?rewindDepth=1&rewindDepth=2",
          "the query parameter rewindDepth is given more than once",
        ],
        [
          "poll?confirmationDepth=x",
          'the query parameter confirmationDepth must be an integer >= 0, got "x"',
        ],
        [
          "poll?confirmationDepth=",
          'the query parameter confirmationDepth must be an integer >= 0, got ""',
        ],
      ];
      const body = wireCommand(devCommand({ code: "1", nonce: "bad depth" }));
      for (const [path, reason] of cases) {
        const answer = await post(
          path,
          path.startsWith("poll") ? { requestKeys: [body.hash] } : body,
        );
        assert.equal(answer.status, 400, path);
        assert.equal(await answer.text(), reason);
      }
    });
  });
});
