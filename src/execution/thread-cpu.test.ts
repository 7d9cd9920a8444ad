import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Worker } from "node:worker_threads";
import { threadCpuMs } from "./thread-cpu.ts";

/** Spins this thread for `ms` of wall time. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe("threadCpuMs", () => {
  it("counts this thread's running time", () => {
    const before = threadCpuMs();
    spin(200);
    assert.ok(threadCpuMs() - before >= 100, `${threadCpuMs() - before} ms`);
  });

  it("does not count another thread's", { skip: process.platform !== "linux" }, async () => {
    const before = threadCpuMs();
    const processBefore = process.cpuUsage();
    const worker = new Worker(
      "const end = performance.now() + 400; while (performance.now() < end);",
      { eval: true },
    );
    await new Promise((resolve) => worker.once("exit", resolve));
    const processMs =
      (process.cpuUsage(processBefore).user + process.cpuUsage(processBefore).system) / 1000;
    const ownMs = threadCpuMs() - before;
    assert.ok(processMs >= 300, `the process ran ${processMs} ms`);
    assert.ok(ownMs < 150, `this thread ran ${ownMs} ms while the other spun`);
  });
});
