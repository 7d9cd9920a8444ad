/**
 * A client asking a node of the network's `/info` every few milliseconds while something runs
 * (the probe of test/support/answer-probe.ts): each answer's wall-clock time and the CPU time the
 * node's thread ran meanwhile, which a loaded machine does not inflate.
 */
import assert from "node:assert/strict";
import { PROBE_HEADERS, probeDuring, type Waits } from "../../support/answer-probe.ts";
import type { NetNode } from "./net-node.ts";

/** Asks `node`'s `/info` until `done` settles (answer-probe.ts); every answer must be a 200. */
export async function infoWaitsUntil(node: NetNode, done: Promise<unknown>): Promise<Waits> {
  const info = async () => {
    const response = await fetch(`${node.url}/info`, { headers: PROBE_HEADERS });
    await response.arrayBuffer();
    assert.equal(response.status, 200, "/info");
  };
  return (await probeDuring(node.process.child.pid!, [info], () => done)).waits;
}

/** The answers' count, wall-clock p99 and slowest, and the most the node ran during one. */
export function infoWaitsSummary({ wallMs, serverCpuMs }: Waits): string {
  const sorted = [...wallMs].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)]!;
  return (
    `/info answered ${wallMs.length} times, p99 ${p99.toFixed(0)} ms, slowest ` +
    `${sorted.at(-1)!.toFixed(0)} ms; the node ran at most ${Math.max(...serverCpuMs).toFixed(0)} ms during one`
  );
}
