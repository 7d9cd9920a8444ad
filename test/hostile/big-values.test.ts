/**
 * Issue 33, item 6: values big in length or in depth in commands to a `braid node` process. A
 * list of 200,000 values as a `local` result and in its data, one of 130,000 in a sent command's
 * data and its result in a block, and a result nested
 * 10,000 deep, come back whole; a row nested deeper than the store reads back is refused with a
 * message naming that limit, not the engine's stack.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeCommandJson, encodeSubmitBatch, signCommand } from "../../src/command/index.ts";
import type { CommandJson } from "../../src/command/types.ts";
import { decodeHex, keyPairFromSeed } from "../../src/crypto/index.ts";
import { DEV_ACCOUNTS } from "../../src/node/genesis/accounts.ts";
import { MAX_STORED_VALUE_DEPTH } from "../../src/pact/db/codec.ts";
import { post } from "../crash/support/requests.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

const LENGTH = 200_000;
const SENT_LENGTH = 130_000;
const SENDER = DEV_ACCOUNTS[0]!;
const SENDER_KEY = keyPairFromSeed(decodeHex(SENDER.secretKey, 32));

/** A command running `code` with `data`, signed by sender00 for gas when `signed`. */
function command(code: string, data: unknown, nonce: string, signed: boolean): CommandJson {
  const cmd = JSON.stringify({
    payload: { exec: { code, data } },
    nonce,
    signers: signed ? [{ pubKey: SENDER.publicKey, clist: [{ name: "coin.GAS", args: [] }] }] : [],
    meta: {
      gasLimit: 150_000,
      gasPrice: 1e-8,
      sender: SENDER.name,
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 60,
      chainId: "0",
    },
    networkId: "development",
  });
  return signCommand(cmd, signed ? [SENDER_KEY] : [], "blake2b");
}

/** The `result` of a command's result JSON. */
type Result = { status: string; data?: unknown; error?: { message: string } };

describe("big values in commands", () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNode();
  });
  after(() => node.stop());

  const local = async (code: string, data: unknown = null): Promise<Result> => {
    const answer = await post(
      `${node.api(0)}/local`,
      encodeCommandJson(command(code, data, `local ${code}`, false)),
    );
    assert.equal(answer.status, 200, answer.text.slice(0, 500));
    return JSON.parse(answer.text).result;
  };

  it("answers a local whose result is a list of 200,000 values", async () => {
    const result = await local(`(enumerate 1 ${LENGTH})`);
    assert.equal(result.status, "success", result.error?.message);
    const data = result.data as { int: number }[];
    assert.equal(data.length, LENGTH);
    assert.deepEqual([data[0], data.at(-1)], [{ int: 1 }, { int: LENGTH }]);
  });

  it("answers a local whose data holds a list of 200,000 numbers, as its result", async () => {
    const xs = Array.from({ length: LENGTH }, (_, i) => i);
    const result = await local("(read-msg 'xs)", { xs });
    assert.equal(result.status, "success", result.error?.message);
    assert.deepEqual(result.data, xs);
  });

  it("runs a sent command whose data holds as long a list as its size's gas allows", async () => {
    // A command's size costs ceil(c + (c/512)^7) gas, c = 0.01 per byte (gas-fees.ts): 200,000
    // numbers cost more than a block holds, 130,000 one-digit ones about 90,000.
    const xs = Array<number>(SENT_LENGTH).fill(7);
    const sent = command("(read-msg 'xs)", { xs }, "big data", true);
    const accepted = await post(`${node.api(0)}/send`, encodeSubmitBatch([sent]));
    assert.equal(accepted.status, 200, accepted.text.slice(0, 500));
    const listened = await post(`${node.api(0)}/listen`, JSON.stringify({ listen: sent.hash }));
    assert.equal(listened.status, 200, listened.text.slice(0, 500));
    const result: Result = JSON.parse(listened.text).result;
    assert.equal(result.status, "success", result.error?.message);
    assert.deepEqual(result.data, xs);
  });

  it("answers a local whose result is nested 10,000 deep", async () => {
    const result = await local("(fold (lambda (a x) [a]) [] (enumerate 1 10000))");
    assert.equal(result.status, "success", result.error?.message);
    let depth = 0;
    for (let v = result.data; Array.isArray(v) && v.length > 0; v = v[0]) depth++;
    assert.equal(depth, 10_000);
  });

  it("refuses to store a row nested deeper than the store reads back, naming the limit", async () => {
    const table = (levels: number) =>
      `(namespace 'free)
       (module deep G (defcap G () true) (defschema s v:list) (deftable t:{s}))
       (create-table t)
       (insert t "k" {"v": (fold (lambda (a x) [a]) [] (enumerate 1 ${levels}))})`;
    const stored = await local(table(MAX_STORED_VALUE_DEPTH - 1));
    assert.equal(stored.status, "success", stored.error?.message);
    const refused = await local(table(MAX_STORED_VALUE_DEPTH));
    assert.equal(refused.status, "failure");
    assert.equal(
      refused.error?.message,
      "Resource limit exceeded: a value nested deeper than 900 levels cannot be stored",
    );
  });
});
