/**
 * A seeded fuzz run against every contract endpoint of `braid node` (issues #9, #11 and #12, the
 * SPV endpoint on both its paths included): random,
 * hostile and mutated bodies, good and bad chains and networks, both path prefixes, over real
 * HTTP to a node in a child process. Every answer must be a 200, 400 or 404 (a 504 only from
 * `listen` on a well-formed key nobody sends; a 405 allowing POST only to a PUT), `/health-check` must keep answering promptly,
 * and nothing may change: the corpus's commands cannot pay for gas, so no block is made.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fuzzBody } from "../../src/api/http/test-support/fuzz-bodies.ts";
import { SPV_PATHS } from "../../src/api/service/spv-routes.ts";
import type { Random } from "../../src/chain/test-support/random.ts";
import { signCommand } from "../../src/command/index.ts";
import { encodeHex, keyPairFromSeed } from "../../src/crypto/index.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { fuzzWithProbe } from "./support/fuzz-run.ts";

const FUZZ_SEED = 0x0b8a1d;
const FUZZ_MS = 3_000;
const FUZZ_WORKERS = 2;
const WARM_UP_REQUESTS = 100;
/**
 * How fast 95 % of the `/health-check` answers must be while the fuzz runs. Looser than the
 * development server's 100 ms: the node's requests verify signatures and check commands against
 * 20 chains, and the test shares two cores with another test file.
 */
const HEALTH_WITHIN_MS = 250;
/** The slowest `/health-check` answer allowed while the fuzz runs (one hiccup of the machine). */
const HEALTH_AT_MOST_MS = 1_000;

/** A key no account uses: every command of the corpus fails to buy gas. */
const key = keyPairFromSeed(new Uint8Array(32).fill(9));
const PUBLIC = encodeHex(key.publicKey);

function command(code: string, nonce: string, chainId = "0", meta?: unknown): string {
  const cmd = JSON.stringify({
    payload: { exec: { code, data: { n: 1 } } },
    meta: meta ?? {
      creationTime: Math.floor(Date.now() / 1000) - 60,
      ttl: 3600,
      gasLimit: 1000,
      chainId,
      gasPrice: 1e-8,
      sender: `k:${PUBLIC}`,
    },
    signers: [{ pubKey: PUBLIC, clist: [{ name: "coin.GAS", args: [] }] }],
    networkId: "development",
    nonce,
  });
  return JSON.stringify(signCommand(cmd, [key], "blake2b"));
}

const CODES = ['(coin.get-balance "sender00")', "(+ 1 2)", '(enforce false "no")', "(tx-hash)"];

function corpus(): Record<string, { valid: string[]; fields: string[] }> {
  const commands = CODES.map((code, i) => command(code, `fuzz-${i}`));
  const hashes = commands.map((c) => JSON.parse(c).hash as string);
  const priv = command("(+ 1 2)", "private", "0", { address: { from: "a", to: ["b"] } });
  return {
    send: { valid: commands.map((c) => `{"cmds":[${c}]}`), fields: ["cmds"] },
    poll: { valid: [JSON.stringify({ requestKeys: hashes })], fields: ["requestKeys"] },
    listen: { valid: hashes.map((h) => JSON.stringify({ listen: h })), fields: ["listen"] },
    local: { valid: commands, fields: ["cmd", "hash", "sigs"] },
    spv: {
      valid: hashes.flatMap((h) => [
        JSON.stringify({ requestKey: h, targetChainId: "1" }),
        JSON.stringify({ requestKey: h, targetChainId: "19" }),
      ]),
      fields: ["requestKey", "targetChainId"],
    },
    private: {
      valid: [`{"cmd":${JSON.stringify(JSON.parse(priv).cmd)},"hash":"x","sigs":[]}`],
      fields: ["cmd", "hash", "sigs"],
    },
  };
}

const QUERIES: Record<string, string[]> = {
  local: [
    "",
    "?preflight=true",
    "?signatureVerification=false",
    "?rewindDepth=1",
    "?rewindDepth=-1",
    "?preflight=maybe",
  ],
  poll: ["", "?confirmationDepth=2", "?confirmationDepth=999999", "?confirmationDepth=x"],
};
/** Mostly chains and networks that exist, so the bodies are looked at. */
const CHAINS = ["0", "0", "0", "0", "3", "7", "19", "0", "0", "20", "01", "abc", "99999999999"];
const NETWORKS = ["development", "development", "development", "development", "mainnet01"];
const PREFIXES = ["pact/api/v1", "contract/api/v1"];

describe("braid node under a seeded fuzz run", () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNode({ args: ["--listen-timeout", "0.2"] });
  });
  after(() => {
    void node?.kill();
  });

  /** The height the next block of each chain would have (from `local`'s metaData). */
  async function heights(): Promise<number[]> {
    return Promise.all(
      Array.from({ length: 20 }, async (_, c) => {
        const response = await fetch(
          `${node.url}/chainweb/0.0/development/chain/${c}/pact/api/v1/local`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: command('(coin.get-balance "sender00")', `h-${c}`, String(c)),
          },
        );
        const result = JSON.parse(await response.text());
        assert.equal(result.result.data, 100000000);
        return result.metaData.blockHeight as number;
      }),
    );
  }

  it(`answers only 200, 400, 404 and 405, keeps 95 % of /health-check within ${HEALTH_WITHIN_MS} ms, and changes nothing`, async () => {
    const before = await heights();
    const endpoints = corpus();
    const names = Object.keys(endpoints);
    const statuses = new Map<number, number>();
    let requests = 0;

    const one = async (worker: Random) => {
      const name = worker.pick(names);
      const { valid, fields } = endpoints[name]!;
      const body = fuzzBody(worker, valid, fields);
      const chain = worker.pick(CHAINS);
      const network = worker.pick(NETWORKS);
      const query = worker.pick(QUERIES[name] ?? [""]);
      const endpoint = name === "spv" ? worker.pick(SPV_PATHS) : `${worker.pick(PREFIXES)}/${name}`;
      const path = `/chainweb/0.0/${network}/chain/${chain}/${endpoint}${query}`;
      const headers: Record<string, string> = {};
      if (body.contentType !== undefined) headers["content-type"] = body.contentType;
      const method = worker.int(20) === 0 ? "PUT" : "POST";
      const response = await fetch(`${node.url}${path}`, {
        method,
        headers,
        body: body.text,
      });
      const text = await response.text();
      requests++;
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const allowed =
        (method === "PUT"
          ? response.status === 405 && response.headers.get("allow") === "POST"
          : [200, 400, 404].includes(response.status)) ||
        (name === "listen" && response.status === 504);
      assert.ok(
        allowed,
        `seed ${FUZZ_SEED}: ${response.status} for ${path} with ${JSON.stringify(body.text.slice(0, 300))}: ${text.slice(0, 500)}`,
      );
      assert.equal(response.headers.get("x-chainweb-node-version") !== null, true, path);
      assert.ok(text.length < 100_000, `${path}: an answer of ${text.length} characters`);
    };
    const { p95, slowest } = await fuzzWithProbe({
      seed: FUZZ_SEED,
      warmUp: WARM_UP_REQUESTS,
      ms: FUZZ_MS,
      workers: FUZZ_WORKERS,
      one,
      probe: async () => {
        const response = await fetch(`${node.url}/health-check`);
        assert.equal(await response.text(), "Health check OK.\n");
      },
    });
    assert.ok(requests > WARM_UP_REQUESTS + 100, `only ${requests} requests`);
    assert.ok(p95 < HEALTH_WITHIN_MS, `/health-check p95 ${p95.toFixed(1)} ms`);
    assert.ok(slowest < HEALTH_AT_MOST_MS, `/health-check took ${slowest.toFixed(1)} ms`);
    assert.deepEqual(await heights(), before, "no block was made");
    console.log(
      `node fuzz: ${requests} requests, statuses ${JSON.stringify([...statuses])}, /health-check p95 ${p95.toFixed(1)} ms, at most ${slowest.toFixed(1)} ms`,
    );
  });
});
