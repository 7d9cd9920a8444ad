/**
 * The CPU time a process's main thread (a node's event loop) has used, from /proc (Linux): what
 * a server spent while a client waited, which on a loaded machine the wall clock overstates (it
 * counts the waits for a core too).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** The unit of /proc's CPU times (USER_HZ). */
const CLOCK_TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));

/** Milliseconds of CPU time the main thread of process `pid` (its event loop) has used. */
export function mainThreadCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
  // After the parenthesised name: the state (the line's 3rd field), …, utime (14th), stime (15th).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
