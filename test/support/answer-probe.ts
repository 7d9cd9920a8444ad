/**
 * A second client that keeps asking a server something while a load runs, and how long each of
 * its answers took: by the wall clock, and by the CPU time of the server's main thread (its event
 * loop, from /proc). Both are counted from when the request's headers are written (undici's
 * `sendHeaders` diagnostics channel), not from the call to `fetch`, since until then the test's
 * own load may get ahead of the probe in this process. Shared by the tests that time the node's
 * answers (`test/hostile/*.timed.test.ts`).
 */
import assert from "node:assert/strict";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { devCommand } from "../../src/node/test-support/dev-node.ts";
import { mainThreadCpuMs } from "./thread-cpu.ts";

/** A header that marks the second client's requests. */
export const PROBE_HEADERS = { "x-braid-probe": "1" };
/** How often the second client asks. */
export const PROBE_EVERY_MS = 10;
/** The slowest answer the second client may get while a load runs (issue #34's bound, in CI). */
export const SLOWEST_ANSWER_MS = 200;

/** For each answer: how long it took by the wall clock, and how long the server's thread ran. */
export interface Waits {
  readonly wallMs: number[];
  readonly serverCpuMs: number[];
}

/**
 * Asks each of `probes` of the server `pid` in turn, one every {@link PROBE_EVERY_MS} ms, until
 * `load` settles; the waits for each answer, and the load's result. A probe's request must carry
 * {@link PROBE_HEADERS}.
 */
export async function probeDuring<T>(
  pid: number,
  probes: readonly (() => Promise<unknown>)[],
  load: () => Promise<T>,
): Promise<{ waits: Waits; result: T }> {
  const waits: Waits = { wallMs: [], serverCpuMs: [] };
  let cpuWhenSent = Number.NaN;
  let wallWhenSent = Number.NaN;
  const sent = (message: unknown) => {
    if ((message as { headers: string }).headers.includes("\r\nx-braid-probe: ")) {
      wallWhenSent = performance.now();
      cpuWhenSent = mainThreadCpuMs(pid);
    }
  };
  subscribe("undici:client:sendHeaders", sent);
  let done = false;
  const prober = (async () => {
    for (let i = 0; !done; i++) {
      await probes[i % probes.length]!();
      waits.serverCpuMs.push(mainThreadCpuMs(pid) - cpuWhenSent);
      waits.wallMs.push(performance.now() - wallWhenSent);
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  try {
    return { waits, result: await load() };
  } finally {
    done = true;
    await prober;
    unsubscribe("undici:client:sendHeaders", sent);
  }
}

/** The figures of a load's waits, printed as a `#` line of the test's output. */
export interface WaitFigures {
  readonly answers: number;
  readonly p99WallMs: number;
  readonly slowestWallMs: number;
  /** The most the server's main thread ran while one answer waited. */
  readonly mostServerCpuMs: number;
}

/** Prints the figures of `waits` under `label` and returns them. */
export function reportWaits(label: string, { wallMs, serverCpuMs }: Waits): WaitFigures {
  const sorted = [...wallMs].sort((a, b) => a - b);
  const figures = {
    answers: wallMs.length,
    p99WallMs: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
    slowestWallMs: sorted.at(-1) ?? 0,
    mostServerCpuMs: Math.max(...serverCpuMs),
  };
  console.log(
    `# ${label}: ${figures.answers} answers, p99 ${figures.p99WallMs.toFixed(1)} ms, slowest ${figures.slowestWallMs.toFixed(1)} ms; the server ran at most ${figures.mostServerCpuMs} ms during one`,
  );
  return figures;
}

/**
 * A command's body (`{hash, sigs, cmd}`) as a client sends it, signed by development account
 * `account` (sender00 unless told), its gas payer.
 */
export function commandBody(code: string, nonce: string, gasLimit: number, account = 0): string {
  const c = devCommand({ code, nonce, gasLimit, account });
  const sigs = c.sigs.map((sig) => ({ sig }));
  return JSON.stringify({ hash: c.hash, sigs, cmd: c.cmd });
}

/** The text of a response, asserting it is no 5xx. */
export async function answerText(response: Promise<Response>): Promise<string> {
  const r = await response;
  const text = await r.text();
  assert.ok(r.status < 500, `${r.status} ${text}`);
  return text;
}
