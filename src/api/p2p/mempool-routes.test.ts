/**
 * The mempool P2P endpoints over HTTP against an in-process node: `getPending` with and without a
 * high-water mark, `member`, `lookup`, `insert` through `send`'s admission rules (refused
 * commands left out with a 200, as chainweb-node answers), and the 400s and 404s of bad requests.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ParsedCommand } from "../../command/index.ts";
import { transactionText } from "../../node/executor/block/block-executor.ts";
import type { BraidNode } from "../../node/node.ts";
import { devCommand, GAS_CAP, manualNode } from "../../node/test-support/dev-node.ts";
import type { RunningNodeServer } from "../service/server.ts";
import { serveForTest, wireCommand } from "../service/test-support/test-server.ts";
import { MAX_MEMPOOL_INSERT_COMMANDS, MAX_MEMPOOL_QUERY_KEYS } from "./mempool-routes.ts";

/** A well-formed request key no command has. */
const UNKNOWN_KEY = "A".repeat(43);

const read = (nonce: string, chainId = "0") =>
  devCommand({ code: "(+ 1 2)", caps: [GAS_CAP], nonce, chainId });

describe("mempool P2P endpoints", () => {
  let node: BraidNode;
  let server: RunningNodeServer;
  const faults: unknown[] = [];
  const url = (chain: number | string, endpoint: string) =>
    `${server.url}/chainweb/0.0/development/chain/${chain}/mempool/${endpoint}`;
  const call = async (method: string, target: string, body?: string) => {
    const response = await fetch(target, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body }),
    });
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      text: await response.text(),
    };
  };
  const ok = async (method: string, target: string, body?: string) => {
    const answer = await call(method, target, body);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.type, "application/json; charset=utf-8");
    return answer.text;
  };
  const insert = (commands: readonly unknown[], chain = 0) =>
    ok("PUT", url(chain, "insert"), JSON.stringify(commands.map((c) => JSON.stringify(c))));
  const member = async (hashes: readonly string[], chain = 0) =>
    JSON.parse(await ok("POST", url(chain, "member"), JSON.stringify(hashes)));
  const nonce = () => node.chains[0]!.mempool.nonce;

  let sent: ParsedCommand;

  before(async () => {
    node = manualNode();
    server = await serveForTest(node, faults);
  });
  after(async () => {
    await server.close();
    node.close();
    assert.deepEqual(faults, []);
  });

  it("getPending on an empty mempool: no hashes and the mark [nonce, 0]", async () => {
    assert.equal(
      await ok("POST", url(0, "getPending")),
      `{"hashes":[],"highwaterMark":[${nonce()},0]}`,
    );
  });

  it("getPending lists a sent command; since the new mark, nothing; for another nonce, everything", async () => {
    sent = read("routes sent");
    node.commands.submit(0, [sent]);
    const all = `{"hashes":["${sent.hash}"],"highwaterMark":[${nonce()},1]}`;
    assert.equal(await ok("POST", url(0, "getPending")), all);
    assert.equal(
      await ok("POST", `${url(0, "getPending")}?nonce=${nonce()}&since=1`),
      `{"hashes":[],"highwaterMark":[${nonce()},1]}`,
    );
    assert.equal(await ok("POST", `${url(0, "getPending")}?nonce=${nonce()}&since=0`), all);
    assert.equal(await ok("POST", `${url(0, "getPending")}?nonce=${nonce() + 1n}&since=1`), all);
    assert.equal(await ok("POST", `${url(0, "getPending")}?nonce=${nonce()}`), all, "no since");
    assert.equal(
      await ok("POST", url(1, "getPending")),
      `{"hashes":[],"highwaterMark":[${node.chains[1]!.mempool.nonce},0]}`,
      "another chain's mempool",
    );
  });

  it("member and lookup answer per key, in order", async () => {
    assert.equal(
      await ok("POST", url(0, "member"), JSON.stringify([sent.hash, UNKNOWN_KEY])),
      "[true,false]",
    );
    assert.equal(
      await ok("POST", url(0, "lookup"), JSON.stringify([UNKNOWN_KEY, sent.hash])),
      `[{"tag":"Missing"},{"tag":"Pending","contents":${JSON.stringify(transactionText(sent))}}]`,
    );
    assert.equal(await ok("POST", url(0, "member"), "[]"), "[]");
    assert.equal(await ok("POST", url(0, "lookup"), "[]"), "[]");
    assert.equal(await ok("POST", url(1, "member"), JSON.stringify([sent.hash])), "[false]");
  });

  it("insert adds a valid command (200, empty body) under the next tx id", async () => {
    const fresh = read("routes inserted");
    assert.equal(await insert([wireCommand(fresh)]), "");
    assert.deepEqual(await member([fresh.hash]), [true]);
    assert.equal(
      await ok("POST", `${url(0, "getPending")}?nonce=${nonce()}&since=1`),
      `{"hashes":["${fresh.hash}"],"highwaterMark":[${nonce()},2]}`,
    );
    assert.equal(await insert([wireCommand(fresh)]), "", "again: still one copy");
    assert.equal(node.chains[0]!.mempool.size, 2);
  });

  it("insert leaves out what send refuses, answering 200: a bad signature, another chain, a command on chain, an expired one, a private one", async () => {
    const valid = read("routes bad signature");
    const badSignature = { ...wireCommand(valid), sigs: [{ sig: "00".repeat(64) }] };
    const otherChain = read("routes chain 1", "1");
    const mined = read("routes mined");
    node.commands.submit(0, [mined]);
    node.producer.mine(0);
    assert.deepEqual(await member([mined.hash]), [false], "mined: no longer pending");
    const expired = devCommand({
      code: "(+ 1 2)",
      caps: [GAS_CAP],
      nonce: "routes expired",
      creationTime: Math.floor(Date.now() / 1000) - 7200,
    });
    const secret = devCommand({
      code: "(+ 1 2)",
      nonce: "routes private",
      privateMeta: { kind: "private", address: { from: "Alice", to: ["Bob"] } },
    });
    const good = read("routes good beside bad ones");
    const size = node.chains[0]!.mempool.size;
    assert.equal(
      await insert(
        [badSignature, wireCommand(otherChain), wireCommand(mined), wireCommand(expired)].concat([
          wireCommand(secret),
          wireCommand(good),
        ]),
      ),
      "",
    );
    assert.deepEqual(
      await member([valid.hash, otherChain.hash, mined.hash, expired.hash, secret.hash, good.hash]),
      [false, false, false, false, false, true],
    );
    assert.equal(node.chains[0]!.mempool.size, size + 1);
  });

  describe("bad requests", () => {
    const refused = async (
      method: string,
      target: string,
      body: string | undefined,
      status: number,
      text: string | RegExp,
    ) => {
      const answer = await call(method, target, body);
      // JSON.parse's own words differ between Node versions: those are matched by their start.
      if (typeof text === "string") assert.equal(answer.text, text);
      else assert.match(answer.text, text);
      assert.equal(answer.status, status);
      assert.match(String(answer.type), /^text\/plain/);
    };

    it("getPending: a nonce or since that is not a 64-bit integer, or given twice: 400", async () => {
      await refused(
        "POST",
        `${url(0, "getPending")}?nonce=abc&since=1`,
        undefined,
        400,
        'nonce must be a 64-bit integer, got "abc"',
      );
      await refused(
        "POST",
        `${url(0, "getPending")}?nonce=1&since=9223372036854775808`,
        undefined,
        400,
        'since must be a 64-bit integer, got "9223372036854775808"',
      );
      await refused(
        "POST",
        `${url(0, "getPending")}?nonce=1&since=1&since=2`,
        undefined,
        400,
        "the query parameter since is given more than once",
      );
    });

    it("member and lookup: not an array, a bad key, too many keys: 400", async () => {
      await refused(
        "POST",
        url(0, "member"),
        '{"hashes":[]}',
        400,
        "the request body must be a JSON array of request keys",
      );
      await refused(
        "POST",
        url(0, "lookup"),
        '["abc"]',
        400,
        'request key 0 must be a request key (43 characters of unpadded base64url encoding 32 bytes), got the string "abc": it has 3 characters, not 43',
      );
      await refused("POST", url(0, "member"), "[", 400, /^malformed JSON in the request body: \S/);
      const tooMany = JSON.stringify(Array(MAX_MEMPOOL_QUERY_KEYS + 1).fill(UNKNOWN_KEY));
      await refused(
        "POST",
        url(0, "lookup"),
        tooMany,
        400,
        `the body has ${MAX_MEMPOOL_QUERY_KEYS + 1} request keys; at most ${MAX_MEMPOOL_QUERY_KEYS} are accepted per request`,
      );
    });

    it("insert: not an array of strings, a text that is not a command, too many: 400, nothing inserted", async () => {
      const good = read("routes not inserted");
      await refused(
        "PUT",
        url(0, "insert"),
        JSON.stringify([wireCommand(good)]),
        400,
        "transaction 0 must be a string holding a command's JSON text, got an object",
      );
      await refused(
        "PUT",
        url(0, "insert"),
        JSON.stringify([JSON.stringify(wireCommand(good)), "{"]),
        400,
        /^transaction 1 is not a command: not JSON: \S/,
      );
      await refused(
        "PUT",
        url(0, "insert"),
        JSON.stringify([JSON.stringify(wireCommand(good)), '{"hash":1}']),
        400,
        `transaction 1 is not a command: the command is missing the field "cmd"; the command's "hash" must be a string, got number 1; the command is missing the field "sigs"`,
      );
      assert.deepEqual(await member([good.hash]), [false]);
      await refused(
        "PUT",
        url(0, "insert"),
        JSON.stringify(Array(MAX_MEMPOOL_INSERT_COMMANDS + 1).fill("x")),
        400,
        `the body has ${MAX_MEMPOOL_INSERT_COMMANDS + 1} transactions; at most ${MAX_MEMPOOL_INSERT_COMMANDS} are accepted per request`,
      );
    });

    it("an unknown chain: 404 before the body is read", async () => {
      for (const [method, endpoint] of [
        ["POST", "getPending"],
        ["POST", "member"],
        ["POST", "lookup"],
        ["PUT", "insert"],
      ] as const) {
        await refused(
          method,
          url(20, endpoint),
          "not json",
          404,
          'no such chain: "20"; the chains are 0 to 19',
        );
      }
    });
  });
});
