/**
 * A client asking a node's `/info` every {@link POLL_EVERY_MS} ms, one request after another,
 * while something runs: each answer's wall-clock time and the CPU time the node's thread ran
 * meanwhile (test/support/thread-cpu.ts), which a loaded machine does not inflate.
 */
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { mainThreadCpuMs } from "../../support/thread-cpu.ts";
import type { NetNode } from "./net-node.ts";

/** The pause between one `/info` answer and the next request. */
export const POLL_EVERY_MS = 10;

/** For each `/info` answer: its wall-clock time and the node's thread's CPU time meanwhile. */
export interface InfoWaits {
  readonly wallMs: number[];
  readonly serverCpuMs: number[];
}

/** Asks `node`'s `/info` until `done` settles; every answer must be a 200. */
export async function infoWaitsUntil(node: NetNode, done: Promise<unknown>): Promise<InfoWaits> {
  let finished = false;
  const watched = done.finally(() => {
    finished = true;
  });
  const pid = node.process.child.pid!;
  const waits: InfoWaits = { wallMs: [], serverCpuMs: [] };
  while (!finished) {
    const cpu = mainThreadCpuMs(pid);
    const started = performance.now();
    const response = await fetch(`${node.url}/info`);
    await response.arrayBuffer();
    assert.equal(response.status, 200, "/info");
    waits.wallMs.push(performance.now() - started);
    waits.serverCpuMs.push(mainThreadCpuMs(pid) - cpu);
    await sleep(POLL_EVERY_MS);
  }
  await watched;
  return waits;
}

/** The answers' count, wall-clock p99 and slowest, and the most the node ran during one. */
export function infoWaitsSummary({ wallMs, serverCpuMs }: InfoWaits): string {
  const sorted = [...wallMs].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)]!;
  return (
    `/info answered ${wallMs.length} times, p99 ${p99.toFixed(0)} ms, slowest ` +
    `${sorted.at(-1)!.toFixed(0)} ms; the node ran at most ${Math.max(...serverCpuMs).toFixed(0)} ms during one`
  );
}
