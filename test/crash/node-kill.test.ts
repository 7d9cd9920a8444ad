/**
 * Crash test (issue #11): one data directory, many rounds of
 *   start the node → a burst of coin transfers on a few chains, every reported result recorded →
 *   `kill -9` after a random delay → restart → check.
 * After each restart: every result the node reported before any kill polls back byte-identical;
 * on each chain used, the balances of every account involved (the senders, who are also the
 * receivers, and the miner) add up to their genesis sum plus one block reward per block after
 * genesis (gas only moves coins from senders to the miner); and a new transfer is still mined on
 * every chain used (no chain is stuck). The delays come from a seeded PRNG, each round's within its
 * own share of the delay range (`crash-rounds.ts`: CRASH_ROUNDS=full runs all 22 rounds, `npm test`
 * 6): set CRASH_SEED to replay a run. The node is the built CLI (`dist/cli/main.js`), which starts
 * in a fraction of the time the sources take through tsx.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { encodeCommandJson, encodeSubmitBatch } from "../../src/command/index.ts";
import { DEV_ACCOUNTS } from "../../src/node/genesis/accounts.ts";
import { DEV_BLOCK_REWARD } from "../../src/node/genesis/coin-calls.ts";
import { DEVNET_MINER } from "../../src/node/options.ts";
import { crashRounds, killDelayMs } from "../support/crash-rounds.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { checkReported, type Reported } from "./support/reported.ts";
import { localCommand, post, transferCommand } from "./support/requests.ts";

const SEED = Number(process.env.CRASH_SEED ?? 20261123);
/** Rounds: 6 in `npm test`, 22 with CRASH_ROUNDS=full (crash-rounds.ts). */
const ROUNDS = crashRounds(6, 22);
/** The chains the transfers go to. */
const CHAINS = [0, 7, 13] as const;
/** Concurrent client loops of the burst, each sending one transfer and listening for it. */
const WORKERS = 6;
/** The kill comes this long after the node is ready (ms). */
const KILL_DELAY_MS: readonly [number, number] = [20, 700];
/** Fixed-point scale for comparing Pact decimals exactly (12 fraction digits). */
const SCALE = 10n ** 12n;

/** mulberry32: a small seeded PRNG in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Decimal text to fixed point at {@link SCALE}; refuses digits beyond it. */
function fixed(text: string): bigint {
  const [whole, fraction = ""] = text.split(".");
  const trimmed = fraction.replace(/0+$/, "");
  assert.ok(trimmed.length <= 12, `more fraction digits than the comparison keeps: ${text}`);
  return BigInt(whole!) * SCALE + BigInt(trimmed.padEnd(12, "0"));
}

const ACCOUNTS = [...DEV_ACCOUNTS.map((a) => a.name), DEVNET_MINER.account];
const GENESIS_SUM = DEV_ACCOUNTS.reduce((sum, a) => sum + fixed(a.balance), 0n);
const REWARD = fixed(DEV_BLOCK_REWARD);
const SUM_CODE = `(let ((sum (fold (+) 0.0 (map (lambda (a) (try 0.0 (coin.get-balance a))) ${JSON.stringify(ACCOUNTS).replaceAll(",", " ")})))
       (height (at 'block-height (chain-data))))
  {"sum": sum, "height": height})`;

/** A result the node reported: the exact text `listen` answered. */
let nonce = 0;
const nextNonce = (round: number) => `crash ${SEED} ${round} ${nonce++}`;

/** Sends one transfer and waits for its result; returns the result text. Throws on failure. */
async function transfer(
  node: NodeProcess,
  random: () => number,
  chainId: number,
  round: number,
  signal?: AbortSignal,
): Promise<Reported> {
  const from = Math.floor(random() * DEV_ACCOUNTS.length);
  const to = (from + 1 + Math.floor(random() * (DEV_ACCOUNTS.length - 1))) % DEV_ACCOUNTS.length;
  const amount = `${1 + Math.floor(random() * 1000)}.${Math.floor(random() * 1000)}`;
  const command = transferCommand(from, to, amount, chainId, nextNonce(round));
  const sent = await fetch(`${node.api(chainId)}/send`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: encodeSubmitBatch([command]),
    ...(signal === undefined ? {} : { signal }),
  });
  const sentText = await sent.text();
  if (sent.status !== 200) throw new Error(`send: ${sent.status} ${sentText}`);
  const listened = await fetch(`${node.api(chainId)}/listen`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ listen: command.hash }),
    ...(signal === undefined ? {} : { signal }),
  });
  const text = await listened.text();
  if (listened.status !== 200) throw new Error(`listen: ${listened.status} ${text}`);
  const result = JSON.parse(text) as { result: { status: string } };
  if (result.result.status !== "success") throw new Error(`transfer failed: ${text}`);
  return { chainId, key: command.hash, text, round };
}

/**
 * The burst: client loops sending transfers until the node dies, recording each result the
 * node reported. Returns once every loop has stopped (they stop at the first failed request).
 */
async function burst(
  node: NodeProcess,
  random: () => number,
  round: number,
  reported: Reported[],
): Promise<void> {
  const loop = async () => {
    for (;;) {
      const chainId = CHAINS[Math.floor(random() * CHAINS.length)]!;
      try {
        reported.push(await transfer(node, random, chainId, round));
      } catch (e) {
        // The node is gone (connection refused or reset): the burst is over. Any other
        // failure while it is still running is a finding.
        if (node.child.exitCode === null && node.child.signalCode === null) {
          const cause = (e as { cause?: { code?: string } }).cause?.code;
          if (cause === undefined) throw e;
        }
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, loop));
}

/** The balances of the senders and the miner add up on every chain used. */
async function checkBalances(node: NodeProcess, round: number): Promise<number> {
  let blocks = 0;
  for (const chainId of CHAINS) {
    const command = localCommand(SUM_CODE, chainId, nextNonce(round));
    const answer = await post(`${node.api(chainId)}/local`, encodeCommandJson(command));
    assert.equal(answer.status, 200, answer.text);
    const local = JSON.parse(answer.text) as {
      result: {
        status: string;
        data: { sum: { decimal: string } | number; height: { int: number } };
      };
      metaData: { blockHeight: number };
    };
    assert.equal(local.result.status, "success", answer.text);
    const { sum, height } = local.result.data;
    assert.equal(height.int, local.metaData.blockHeight, answer.text);
    const after = local.metaData.blockHeight - 1; // blocks after genesis (the next is this one)
    const total = fixed(typeof sum === "number" ? String(sum) : sum.decimal);
    assert.equal(
      total,
      GENESIS_SUM + REWARD * BigInt(after),
      `chain ${chainId} after round ${round}: balances add up to ${typeof sum === "number" ? sum : sum.decimal} with ${after} blocks after genesis`,
    );
    blocks += after;
  }
  return blocks;
}

test(`the node survives ${ROUNDS} kill -9 rounds with every reported result intact`, {
  timeout: 180_000,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "braid-crash-"));
  const random = prng(SEED);
  const reported: Reported[] = [];
  const started = performance.now();
  let node: NodeProcess | null = null;
  try {
    for (let round = 0; round <= ROUNDS; round++) {
      node = await startNode({ dataDir: dir, built: true });
      await checkReported(node, reported, CHAINS);
      const blocks = await checkBalances(node, round);
      // No chain is stuck: a new transfer is mined on every chain used.
      for (const chainId of CHAINS) {
        reported.push(await transfer(node, random, chainId, round, AbortSignal.timeout(15_000)));
      }
      if (round === ROUNDS) {
        t.diagnostic(
          `seed ${SEED}: ${ROUNDS} kills, ${reported.length} results checked after every restart, ${blocks} blocks on chains ${CHAINS.join(", ")}, ${Math.round(performance.now() - started)} ms`,
        );
        break;
      }
      const delay = killDelayMs(round, ROUNDS, random(), KILL_DELAY_MS);
      const running = node;
      const load = burst(running, random, round, reported);
      await new Promise((resolve) => setTimeout(resolve, delay));
      await running.kill();
      await load;
      node = null;
    }
  } finally {
    if (node !== null) {
      await node.stop();
    }
    rmSync(dir, { recursive: true, force: true });
  }
});
