import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Worker } from "node:worker_threads";
import { CPU_READING_REUSE_MS, threadCpuAtStartMs, threadCpuMs } from "./thread-cpu.ts";

/** The process's CPU time in milliseconds (every thread's). */
function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

describe("threadCpuMs", () => {
  // Spins measured in CPU time, not on the wall clock: a loaded machine gives a spin less CPU.
  it("counts this thread's running time", () => {
    const ownBefore = threadCpuMs();
    const processBefore = processCpuMs();
    while (processCpuMs() - processBefore < 200);
    const own = threadCpuMs() - ownBefore;
    // Some of the process's time is other threads' (the compiler's, the collector's).
    assert.ok(own >= 100, `this thread ran ${own} ms of the process's 200`);
  });

  it("does not count another thread's", { skip: process.platform !== "linux" }, async () => {
    const ownBefore = threadCpuMs();
    const processBefore = processCpuMs();
    // The other thread spins until the process has run 400 ms more (this one waits meanwhile).
    const worker = new Worker(
      `const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
       const end = cpu() + 400; while (cpu() < end);`,
      { eval: true },
    );
    await new Promise((resolve) => worker.once("exit", resolve));
    const processMs = processCpuMs() - processBefore;
    const ownMs = threadCpuMs() - ownBefore;
    assert.ok(processMs >= 400, `the process ran ${processMs} ms`);
    assert.ok(ownMs < 150, `this thread ran ${ownMs} ms while the other spun`);
  });

  it("a command's start: a reading no later than now, taken again once it is old", () => {
    const first = threadCpuAtStartMs();
    assert.ok(first <= threadCpuMs());
    const processBefore = processCpuMs();
    while (processCpuMs() - processBefore < 100);
    const later = performance.now() + CPU_READING_REUSE_MS;
    while (performance.now() <= later);
    // The spin's time is in the new reading (/proc counts in 10 ms ticks).
    assert.ok(threadCpuAtStartMs() - first >= 50);
  });
});
