/**
 * A seeded fuzz run against every development-server endpoint (issue #9): random, hostile and
 * mutated bodies over real HTTP for a few seconds. Every answer must be 2xx or 4xx (a PUT a 405
 * allowing POST), `/version`
 * must keep answering within 250 ms while it runs (19 answers in 20: the timing is taken by
 * this process, which runs the load too, on a machine shared with other tests; none may take a
 * second), and the server must work afterwards.
 * A failure prints the seed and the request, so it can be replayed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type FuzzBody, fuzzBody } from "../../src/api/http/test-support/fuzz-bodies.ts";
import type { Random } from "../../src/chain/test-support/random.ts";
import { signCommand } from "../../src/command/index.ts";
import { encodeHex, keyPairFromSeed } from "../../src/crypto/index.ts";
import { devServerPerSuite } from "../support/dev-server-process.ts";
import { fuzzWithProbe } from "./support/fuzz-run.ts";

/** The seed of the run; change it to explore, set it to a failing run's seed to replay. */
const FUZZ_SEED = 0x1badc0de;
/** How long the run lasts. */
const FUZZ_MS = 3_000;
/** Requests in flight at once. */
const FUZZ_WORKERS = 2;
/** Requests sent before `/version` is timed (the server's first requests compile its code). */
const WARM_UP_REQUESTS = 200;
/**
 * How fast 95 % of the `/version` answers must be while the fuzz runs: the node's fuzz test's
 * bound. 100 ms failed twice beside the other test file run with it (211 and 224 ms; 52–57 alone
 * on the same machine): since its commands run on a thread of their own, what the server's HTTP
 * thread waits for here is mostly a core.
 */
const VERSION_WITHIN_MS = 250;
/** The slowest `/version` answer allowed while the fuzz runs. */
const VERSION_AT_MOST_MS = 1_000;

const key = keyPairFromSeed(new Uint8Array(32).fill(7));
const PUBLIC = encodeHex(key.publicKey);

function command(code: string, nonce: string, meta?: unknown): string {
  const cmd = JSON.stringify({
    payload: { exec: { code, data: { n: 1 } } },
    meta: meta ?? {
      creationTime: 1700000000,
      ttl: 600,
      gasLimit: 100_000,
      chainId: "0",
      gasPrice: 1e-8,
      sender: "alice",
    },
    signers: [{ pubKey: PUBLIC, clist: [] }],
    networkId: "development",
    nonce,
  });
  return JSON.stringify(signCommand(cmd, [key], "blake2s"));
}

const CODES = [
  "(+ 1 2)",
  "(module m G (defcap G () true) (defun f (x) (* x 2)))",
  "(m.f 21)",
  "(read-msg 'n)",
  "(tx-hash)",
  '(enforce false "no")',
  "(fold (+) 0 (enumerate 1 100))",
];

/** Valid bodies of each endpoint, which the fuzzer mutates. */
function corpus(): Record<string, { valid: string[]; fields: string[] }> {
  const commands = CODES.map((code, i) => command(code, `fuzz-${i}`));
  const hashes = commands.map((c) => JSON.parse(c).hash as string);
  const priv = command("(+ 1 2)", "private", { address: { from: "entity", to: ["other"] } });
  return {
    send: { valid: commands.map((c) => `{"cmds":[${c}]}`), fields: ["cmds"] },
    poll: { valid: [JSON.stringify({ requestKeys: hashes })], fields: ["requestKeys"] },
    listen: { valid: hashes.map((h) => JSON.stringify({ listen: h })), fields: ["listen"] },
    local: { valid: commands, fields: ["cmd", "hash", "sigs"] },
    private: { valid: [priv], fields: ["cmd", "hash", "sigs"] },
    verify: {
      valid: [...commands, '{"code":"(module m G (defcap G () true))"}'],
      fields: ["code"],
    },
  };
}

const QUERIES = ["", "?preflight=true", "?signatureVerification=false", "?preflight=true&x=%00"];

describe("the development server under a seeded fuzz run", () => {
  const devServer = devServerPerSuite("braid-fuzz-");

  it(`answers only 2xx and 4xx, keeps /version within ${VERSION_WITHIN_MS} ms, and stays up`, async () => {
    const server = devServer();
    const endpoints = corpus();
    const names = Object.keys(endpoints);
    const statuses = new Map<number, number>();
    let requests = 0;

    const one = async (worker: Random) => {
      const name = worker.pick(names);
      const { valid, fields } = endpoints[name] as { valid: string[]; fields: string[] };
      const body: FuzzBody = fuzzBody(worker, valid, fields);
      const path = `/api/v1/${name}${name === "local" ? worker.pick(QUERIES) : ""}`;
      const headers: Record<string, string> = {};
      if (body.contentType !== undefined) headers["content-type"] = body.contentType;
      const method = worker.int(20) === 0 ? "PUT" : "POST";
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers,
        body: body.text,
      });
      const text = await response.text();
      requests++;
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      assert.ok(
        method === "PUT"
          ? response.status === 405 && response.headers.get("allow") === "POST"
          : response.status < 500,
        `seed ${FUZZ_SEED}: ${response.status} for ${method} ${path} with ${JSON.stringify(body.text.slice(0, 300))}: ${text}`,
      );
      assert.ok(
        text.length < 100_000 || name === "poll" || name === "verify",
        `${path}: ${text.length}`,
      );
    };
    const { p95, slowest } = await fuzzWithProbe({
      seed: FUZZ_SEED,
      warmUp: WARM_UP_REQUESTS,
      ms: FUZZ_MS,
      workers: FUZZ_WORKERS,
      one,
      probe: async () => {
        const response = await fetch(`${server.url}/version`);
        assert.equal(await response.text(), "pact version 5.4");
      },
    });
    assert.ok(requests > WARM_UP_REQUESTS + 100, `only ${requests} requests`);
    assert.ok(p95 < VERSION_WITHIN_MS, `/version p95 ${p95.toFixed(1)} ms`);
    assert.ok(slowest < VERSION_AT_MOST_MS, `/version took ${slowest.toFixed(1)} ms`);
    // Still up, and still running commands.
    const local = await fetch(`${server.url}/api/v1/local`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: command("(+ 40 2)", "after"),
    });
    assert.deepEqual(JSON.parse(await local.text()).result.data, { int: 42 });
    console.log(
      `fuzz: ${requests} requests, statuses ${JSON.stringify([...statuses])}, /version p95 ${p95.toFixed(1)} ms, at most ${slowest.toFixed(1)} ms`,
    );
  });
});
