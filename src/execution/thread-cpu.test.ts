import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Worker } from "node:worker_threads";
import {
  CPU_READING_REUSE_MS,
  ownThreadStatFile,
  threadCpuAtStartMs,
  threadCpuMs,
  threadCpuMsAt,
} from "./thread-cpu.ts";

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
    while (processCpuMs() - processBefore < 300);
    const own = threadCpuMs() - ownBefore;
    // Some of the process's time is other threads' (the compiler's, the collector's: on a loaded
    // machine more than half of it once, 110 ms of 200).
    assert.ok(own >= 75, `this thread ran ${own} ms of the process's 300`);
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
    // The spin's time is in the new reading (where /proc has only `stat`, in 10 ms ticks).
    assert.ok(threadCpuAtStartMs() - first >= 50);
  });

  it("reads another thread's from the file that thread names", {
    skip: process.platform !== "linux",
  }, async () => {
    const own = ownThreadStatFile();
    assert.match(own ?? "", /^\/proc\/\d+\/task\/\d+\/(sched)?stat$/);
    assert.equal(threadCpuMsAt("/proc/no-such-thread/stat"), null);
    // The other thread names its file, spins 300 ms of its own CPU time, then waits to be ended.
    const worker = new Worker(
      `const { parentPort } = require("node:worker_threads");
       const { readlinkSync, readFileSync } = require("node:fs");
       const file = "/proc/" + readlinkSync("/proc/thread-self") + "/stat";
       const cpu = () => { const f = readFileSync(file, "latin1").split(") ")[1].split(" ");
         return (Number(f[11]) + Number(f[12])) * 10; };
       const end = cpu() + 300; while (cpu() < end);
       parentPort.postMessage(file);`,
      { eval: true },
    );
    const file = await new Promise<string>((resolve) => worker.once("message", resolve));
    const ranMs = threadCpuMsAt(file);
    await worker.terminate();
    assert.notEqual(file, own);
    assert.ok(ranMs !== null && ranMs >= 300, `the other thread ran ${ranMs} ms`);
  });
});
