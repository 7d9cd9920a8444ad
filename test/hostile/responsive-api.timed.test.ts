/**
 * Issue 24, item 1: no command — in `local`, in a block (`send`), on the development server —
 * may stop the node answering others. The worst commands the limits allow run through each
 * while a second client asks `/info` and `poll` of the node (`/version` of the development
 * server) every few milliseconds: every one of its answers must come within 200 ms. The p99 is
 * printed for the closing note. Before the time limit for one command, one `local` held the
 * node for seconds.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { devCommand } from "../../src/node/test-support/dev-node.ts";
import { devServerPerSuite } from "../support/dev-server-process.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

/** The longest the second client may wait for any answer. */
const ANSWER_WITHIN_MS = 200;
/** How often the second client asks. */
const PROBE_EVERY_MS = 10;
/** How many times the node's load runs the worst commands (so it lasts a few seconds). */
const ROUNDS = 3;

/** Commands that would each run for seconds without the time limit, at the block's gas limit. */
const WORST_CODES = [
  "(length (int-to-str 10 (^ 3 1000000)))",
  "(length (int-to-str 64 (^ 3 1000000)))",
  "(fold (+) 0 (enumerate 1 3000000))",
  "(fold (lambda (a x) (+ a (* x x))) 0 (enumerate 1 3000000))",
  "(length (distinct (enumerate 1 1000000)))",
  "(length (sort (enumerate 1000000 1 -1)))",
  "(length (map (lambda (x) (int-to-str 16 x)) (enumerate 1 1000000)))",
];

/** `{"cmds":[…]}` of one command as a client sends it. */
function body(code: string, nonce: string): string {
  const c = devCommand({ code, nonce, gasLimit: 150_000 });
  const sigs = c.sigs.map((sig) => ({ sig }));
  return JSON.stringify({ hash: c.hash, sigs, cmd: c.cmd });
}

/**
 * Asks each of `probes` in turn, one every {@link PROBE_EVERY_MS} ms, until `load` settles; the
 * milliseconds each answer took, and the load's result.
 */
async function probeDuring<T>(
  probes: readonly (() => Promise<unknown>)[],
  load: () => Promise<T>,
): Promise<{ times: number[]; result: T }> {
  const times: number[] = [];
  let done = false;
  const prober = (async () => {
    for (let i = 0; !done; i++) {
      const started = performance.now();
      await probes[i % probes.length]!();
      times.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  try {
    return { times, result: await load() };
  } finally {
    done = true;
    await prober;
  }
}

function report(label: string, times: readonly number[]): void {
  const sorted = [...times].sort((a, b) => a - b);
  const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
  const max = sorted[sorted.length - 1] ?? 0;
  console.log(
    `# ${label}: ${times.length} answers, p99 ${p99.toFixed(1)} ms, slowest ${max.toFixed(1)} ms`,
  );
  assert.ok(times.length > 10, "the second client was answered while the load ran");
  assert.ok(max < ANSWER_WITHIN_MS, `${label}: the slowest answer took ${max.toFixed(1)} ms`);
}

async function ok(response: Promise<Response>): Promise<string> {
  const r = await response;
  const text = await r.text();
  assert.ok(r.status < 500, `${r.status} ${text}`);
  return text;
}

describe("the node keeps answering while the worst commands run", { timeout: 120_000 }, () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNode();
  });
  after(() => node.stop());

  const post = (path: string, text: string) =>
    fetch(`${node.api(0)}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    });
  const probes = [
    () => ok(fetch(`${node.url}/info`)),
    () => ok(post("poll", '{"requestKeys":["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]}')),
  ];

  it("through local", async () => {
    for (const probe of probes) await probe(); // the first answers compile the node's code
    const { times, result } = await probeDuring(probes, async () => {
      const answers: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, code] of WORST_CODES.entries()) {
          answers.push(await ok(post("local", body(code, `local-${round}-${i}`))));
        }
      }
      return answers;
    });
    report("local", times);
    // Each ended within the limits: timed out (a 400), stopped by its gas limit, or done.
    for (const answer of result) {
      assert.match(answer, /^Transaction timed out: it ran longer than|^\{"gas":/);
    }
    assert.ok(result.some((a) => a.startsWith("Transaction timed out")));
  });

  it("through send, in the blocks it makes", async () => {
    const { times } = await probeDuring(probes, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, code] of WORST_CODES.entries()) {
          await ok(post("send", `{"cmds":[${body(code, `send-${round}-${i}`)}]}`));
        }
      }
    });
    report("send", times);
    assert.match(node.output(), /left out \S+: Transaction timed out/);
  });
});

describe("the development server keeps answering while the worst commands run", {
  timeout: 120_000,
}, () => {
  const devServer = devServerPerSuite("braid-responsive-");

  it("through local and send, and a send of many at once", async () => {
    const server = devServer();
    const probe = () => ok(fetch(`${server.url}/version`));
    const post = (path: string, text: string) =>
      ok(
        fetch(`${server.url}/api/v1/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: text,
        }),
      );
    await probe();
    const { times, result } = await probeDuring([probe], async () => {
      const answers: string[] = [];
      for (const [i, code] of WORST_CODES.entries()) {
        answers.push(await post("local", body(code, `d${i}`)));
        answers.push(await post("send", `{"cmds":[${body(code, `s${i}`)}]}`));
      }
      // One batch of them all, twice over: run in turns; polled until the last one's result is in.
      const batch = [...WORST_CODES, ...WORST_CODES].map((code, i) => body(code, `b${i}`));
      const sent = JSON.parse(await post("send", `{"cmds":[${batch.join(",")}]}`));
      const last = JSON.stringify({ requestKeys: [sent.requestKeys.at(-1)] });
      let polled = "{}";
      while (polled === "{}") {
        await new Promise((r) => setTimeout(r, 50));
        polled = await post("poll", last);
      }
      answers.push(polled);
      return answers;
    });
    report("development server", times);
    assert.ok(result.some((a) => a.includes("Transaction timed out")));
    assert.match(result[result.length - 1]!, /"reqKey"/);
  });
});
