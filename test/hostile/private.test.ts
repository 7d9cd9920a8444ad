/**
 * Issue 24, item 4: `private` ran unsigned code in blocks for free (a module deployed and 50 rows
 * written while no balance moved, 40 requests growing the data directory by 43 MB, a block
 * reporting 153,050 gas against its 150,000). Against `braid node` as a process with a data
 * directory: only commands signed by a key of the node's entity run, each within its gas limit,
 * and what they use counts against the block's gas limit.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { signCommand } from "../../src/command/index.ts";
import { decodeHex } from "../../src/crypto/index.ts";
import { DEV_ACCOUNTS, type DevKeyPair } from "../../src/node/genesis/accounts.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

/** A small block gas limit keeps a block of looping commands short. */
const BLOCK_GAS_LIMIT = 20_000;
const SENDER00 = DEV_ACCOUNTS[0]!;
const SENDER01 = DEV_ACCOUNTS[1]!;
/** Growth of the data directory that is not the refused commands' doing (the clock's setting). */
const DATA_DIR_NOISE_BYTES = 64 * 1024;

/** A module and 50 rows, as the unsigned command wrote them. */
function deployAndWrite(name: string): string {
  return `(namespace 'free)
(module ${name} G (defcap G () true) (defschema row v:integer) (deftable t:{row}))
(create-table t)
(map (lambda (i) (insert t (int-to-str 10 i) {"v": i})) (enumerate 1 50))`;
}

/** Runs until it has used all the gas it is given (in milliseconds: within the time limit). */
const ENDLESS = "(fold (lambda (a b) (+ a b)) 0 (enumerate 1 100000))";

interface PrivateSpec {
  readonly code: string;
  readonly nonce: string;
  readonly signer?: DevKeyPair | null;
  readonly gasLimit?: number;
  /** Padding carried in the command's data (bytes). */
  readonly padding?: number;
}

/** A `private` command's body: private metadata, signed by `signer` (sender00 unless null). */
function privateCommand(spec: PrivateSpec) {
  const signer = spec.signer === undefined ? SENDER00 : spec.signer;
  const cmd = JSON.stringify({
    payload: {
      exec: { code: spec.code, data: spec.padding ? { pad: "x".repeat(spec.padding) } : null },
    },
    meta: {
      address: { from: "Alice", to: ["Bob"] },
      ...(spec.gasLimit === undefined ? {} : { gasLimit: spec.gasLimit }),
    },
    signers: signer === null ? [] : [{ pubKey: signer.publicKey }],
    networkId: "development",
    nonce: spec.nonce,
  });
  const keys =
    signer === null
      ? []
      : [{ publicKey: decodeHex(signer.publicKey), secretKey: decodeHex(signer.secretKey) }];
  return signCommand(cmd, keys, "blake2b");
}

function dataDirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? dataDirBytes(path) : statSync(path).size;
  }
  return total;
}

/**
 * The data directory's size once it has stopped changing (the node writes to its state files for
 * a moment after it starts), read every 200 ms for at most 5 s.
 */
async function settledBytes(dir: string): Promise<number> {
  let last = dataDirBytes(dir);
  for (let reads = 0; reads < 25; reads++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = dataDirBytes(dir);
    if (now === last) return now;
    last = now;
  }
  return last;
}

interface CommandResult {
  readonly reqKey: string;
  readonly gas: number;
  readonly result: { status: string; data?: unknown; error?: { message: string } };
  readonly metaData: { blockHash: string; blockHeight: number };
}

describe("private on braid node", { timeout: 120_000 }, () => {
  let node: NodeProcess;
  let dataDir: string;
  const api = () => node.api(0);
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${api()}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      text: await response.text(),
    };
  };
  const local = async (code: string) => {
    const read = privateCommand({ code, nonce: `read ${code}`, signer: null });
    const cmd = JSON.parse(read.cmd);
    const publicCmd = JSON.stringify({
      ...cmd,
      meta: {
        creationTime: Math.floor(Date.now() / 1000) - 10,
        ttl: 600,
        gasLimit: 100_000,
        chainId: "0",
        gasPrice: 1e-8,
        sender: "",
      },
    });
    const answer = await post("local", signCommand(publicCmd, [], "blake2b"));
    assert.equal(answer.status, 200, answer.text);
    return JSON.parse(answer.text) as CommandResult;
  };
  const balance = async (account: string) =>
    (await local(`(coin.get-balance "${account}")`)).result.data;
  const poll = async (keys: readonly string[]) => {
    const answer = await post("poll", { requestKeys: keys });
    assert.equal(answer.status, 200, answer.text);
    return JSON.parse(answer.text) as Record<string, CommandResult>;
  };
  /** The gas of every command of the block `hash` of chain 0, as its payload's outputs say. */
  const blockGas = async (height: number) => {
    const response = await fetch(
      `${node.url}/chainweb/0.0/development/chain/0/block?minheight=${height}&maxheight=${height}`,
    );
    const page = (await response.json()) as {
      items: { payloadWithOutputs: { transactions: [string, string][] } }[];
    };
    assert.equal(page.items.length, 1);
    return page.items[0]!.payloadWithOutputs.transactions.map(
      ([, output]) =>
        (JSON.parse(Buffer.from(output, "base64url").toString()) as CommandResult).gas,
    );
  };

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "braid-hostile-private-"));
    node = await startNode({
      dataDir,
      args: ["--block-gas-limit", String(BLOCK_GAS_LIMIT)],
    });
  });
  after(async () => {
    await node?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("refuses unsigned private commands with a 400 saying why, and stores nothing", async () => {
    const balanceBefore = await balance("sender00");
    const bytesBefore = await settledBytes(dataDir);
    const refusals = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        post(
          "private",
          privateCommand({
            code: deployAndWrite(`unsigned-${i}`),
            nonce: `unsigned ${i}`,
            signer: null,
            padding: 200_000,
          }),
        ),
      ),
    );
    for (const refusal of refusals) {
      const hash = refusal.text.match(/Transaction "([^"]+)"/)?.[1];
      assert.deepEqual(
        { status: refusal.status, type: refusal.type, text: refusal.text },
        {
          status: 400,
          type: "text/plain; charset=utf-8",
          text: `One or more transactions were invalid: Transaction "${hash}" at index 0 failed with: Private commands must be signed by a key of this node's entity (entityKeys)`,
        },
      );
    }
    const described = await local('(describe-module "free.unsigned-0")');
    assert.equal(described.result.status, "failure");
    assert.equal(await balance("sender00"), balanceBefore);
    const grown = (await settledBytes(dataDir)) - bytesBefore;
    assert.ok(grown <= DATA_DIR_NOISE_BYTES, `the data directory grew by ${grown} bytes`);
  });

  test("refuses a private command signed by another key than the entity's", async () => {
    const signed = privateCommand({ code: "(+ 1 2)", nonce: "sender01", signer: SENDER01 });
    const answer = await post("private", signed);
    assert.equal(answer.status, 400);
    assert.equal(
      answer.text,
      `One or more transactions were invalid: Transaction "${signed.hash}" at index 0 failed with: Private commands must be signed by a key of this node's entity (entityKeys)`,
    );
  });

  test("refuses a private gas limit above the block's or below 1", async () => {
    for (const gasLimit of [BLOCK_GAS_LIMIT + 1, 0, -1]) {
      const signed = privateCommand({ code: "(+ 1 2)", nonce: `limit ${gasLimit}`, gasLimit });
      const answer = await post("private", signed);
      const reason =
        gasLimit > 0
          ? `Transaction gas limit exceeds block gas limit (${gasLimit})`
          : `Transaction gas limit must be a positive integer, got ${gasLimit}`;
      assert.deepEqual(
        { status: answer.status, text: answer.text },
        {
          status: 400,
          text: `One or more transactions were invalid: Transaction "${signed.hash}" at index 0 failed with: ${reason}`,
        },
      );
    }
  });

  test("runs a command signed by the entity's key within its gas limit, in its block's gas", async () => {
    const balanceBefore = await balance("sender00");
    const deploy = privateCommand({ code: deployAndWrite("signed"), nonce: "signed deploy" });
    const endless = privateCommand({ code: ENDLESS, nonce: "signed endless", gasLimit: 1_000 });
    for (const command of [deploy, endless]) {
      const answer = await post("private", command);
      assert.deepEqual(answer, {
        status: 200,
        type: "application/json; charset=utf-8",
        text: `{"requestKeys":["${command.hash}"]}`,
      });
    }
    const results = await poll([deploy.hash, endless.hash]);
    const deployed = results[deploy.hash]!;
    assert.deepEqual(deployed.result, {
      status: "success",
      data: Array.from({ length: 50 }, () => "Write succeeded"),
    });
    // About 2,000 (the interpreter's costs may move); within the block's limit, its own being none.
    assert.ok(deployed.gas > 1_000 && deployed.gas <= BLOCK_GAS_LIMIT, `gas ${deployed.gas}`);
    const stopped = results[endless.hash]!;
    assert.equal(stopped.result.status, "failure");
    assert.equal(stopped.gas, 1_000);
    const rows = await local("(length (select free.signed.t (constantly true)))");
    assert.deepEqual(rows.result, { status: "success", data: { int: 50 } });
    // Private commands buy no gas: no balance moves.
    assert.equal(await balance("sender00"), balanceBefore);
    for (const result of [deployed, stopped]) {
      const gas = await blockGas(result.metaData.blockHeight);
      assert.ok(gas.includes(result.gas));
      const total = gas.reduce((a, b) => a + b, 0);
      assert.ok(total <= BLOCK_GAS_LIMIT, `block ${result.metaData.blockHeight}: ${total} gas`);
    }
  });

  test("a flood of private commands never makes a block pass its gas limit", async () => {
    const commands = Array.from({ length: 12 }, (_, i) =>
      privateCommand({
        code: ENDLESS,
        nonce: `flood ${i}`,
        gasLimit: i % 2 === 0 ? 7_000 : undefined,
      }),
    );
    const answers = await Promise.all(commands.map((c) => post("private", c)));
    for (const answer of answers) assert.equal(answer.status, 200, answer.text);
    const keys = commands.map((c) => c.hash);
    let results: Record<string, CommandResult> = {};
    for (let tries = 0; tries < 100 && Object.keys(results).length < keys.length; tries++) {
      results = await poll(keys);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(Object.keys(results).length, keys.length);
    const heights = new Set<number>();
    commands.forEach((command, i) => {
      const result = results[command.hash]!;
      assert.equal(result.gas, i % 2 === 0 ? 7_000 : BLOCK_GAS_LIMIT, `command ${i}`);
      heights.add(result.metaData.blockHeight);
    });
    for (const height of heights) {
      const total = (await blockGas(height)).reduce((a, b) => a + b, 0);
      assert.ok(total <= BLOCK_GAS_LIMIT, `block ${height}: ${total} gas`);
    }
  });
});
