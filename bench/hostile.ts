/**
 * Issue #34's hostile loads as a figure, not a pass/fail bound: a `braid node` process from the
 * built `dist/` (`npm run build` first), a data directory of its own (its `local` calls and heavy
 * blocks on execution threads), takes each load while this process asks `/info` every 10 ms;
 * for each load, the answers, p99 and slowest by the wall clock from when the request's headers
 * were written, and the most the node's main thread ran while one waited (the probe of
 * test/hostile/api-under-load.timed.test.ts, which asserts ≤ 200 ms in CI; the aim on a quiet
 * machine is ≤ 50 ms). The loads: four concurrent `local` of 900,000 literals; `(int-to-str 10
 * (^ 3 1000000))` through `local`, and through `send` five times in turn; eight concurrent
 * `local` of `(enumerate 0 (^ 10 60) (^ 10 54))`. Answers are not checked here (the test does).
 * Prints a line per load and, last, one JSON object of every figure.
 * Usage: npm run build && npm run bench -- hostile
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  commandBody,
  PROBE_HEADERS,
  probeDuring,
  reportWaits,
  type WaitFigures,
} from "../test/support/answer-probe.ts";
import { startNode } from "../test/support/node-process.ts";

/** The gas limit the loads are sent with (a block's). */
const GAS_LIMIT = 150_000;
const BIG_POWER = "(int-to-str 10 (^ 3 1000000))";

const dir = mkdtempSync(join(tmpdir(), "braid-bench-hostile-"));
const node = await startNode({ dataDir: dir, built: true });
const figures: Record<string, WaitFigures> = {};
try {
  const info = async () => (await fetch(`${node.url}/info`, { headers: PROBE_HEADERS })).text();
  const post = async (path: string, body: string) =>
    (
      await fetch(`${node.api(0)}/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      })
    ).text();
  // The bodies are built and signed before the probing starts: building four 1.8 MB bodies
  // holds this process's event loop for tens of milliseconds, which the probe would count.
  const locals = (label: string, code: string, count: number) => {
    const bodies = Array.from({ length: count }, (_, i) =>
      commandBody(code, `${label} ${i}`, GAS_LIMIT),
    );
    return () => Promise.all(bodies.map((body) => post("local", body)));
  };
  const loads: [string, () => Promise<unknown>][] = [
    ["900,000 literals", locals("literals", `(length [${Array(900_000).fill("1").join(" ")}])`, 4)],
    ["int-to-str local", locals("int-to-str", BIG_POWER, 1)],
    [
      "int-to-str send",
      async () => {
        for (let round = 0; round < 5; round++) {
          await post("send", `{"cmds":[${commandBody(BIG_POWER, `send ${round}`, GAS_LIMIT)}]}`);
        }
      },
    ],
    ["enumerate", locals("enumerate", "(enumerate 0 (^ 10 60) (^ 10 54))", 8)],
  ];
  await info(); // the first answers compile the node's code
  for (const [label, load] of loads) {
    const { waits } = await probeDuring(node.child.pid!, [info], load);
    figures[label] = reportWaits(label, waits);
  }
} finally {
  await node.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(figures));
