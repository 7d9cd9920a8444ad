/**
 * The CPU time the calling thread has run, in milliseconds: what a command's time limit counts
 * once the wall clock has passed it. A thread's own time, not the process's: on an execution
 * thread the process's time also counts the node's thread, the other execution threads and the
 * garbage collector's helpers, which would time out a command that ran less than its limit. Node
 * 20 has no call for it (`process.threadCpuUsage` came in Node 23.9): on Linux it is read from
 * `/proc/thread-self/stat`; elsewhere the process's time stands in.
 */
import { readFileSync, readlinkSync } from "node:fs";

/** The unit of /proc's CPU times: USER_HZ, 100 on every Linux userspace ABI. */
const PROC_TICKS_PER_SECOND = 100;
const PROC_STAT = "/proc/thread-self/stat";

type ThreadCpuUsage = () => { user: number; system: number };

export function threadCpuMs(): number {
  const own = (process as { threadCpuUsage?: ThreadCpuUsage }).threadCpuUsage;
  if (own !== undefined) {
    const { user, system } = own.call(process);
    return (user + system) / 1000;
  }
  if (procReadable) {
    const ms = threadCpuMsAt(PROC_STAT);
    if (ms !== null) return ms;
    procReadable = false;
  }
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

let procReadable = process.platform === "linux";

/**
 * The /proc file of the calling thread's CPU times under a name the process's other threads can
 * read too (`/proc/PID/task/TID/stat`: `/proc/thread-self` names the reader's own thread); null
 * off Linux.
 */
export function ownThreadStatFile(): string | null {
  if (process.platform !== "linux") return null;
  try {
    return `/proc/${readlinkSync("/proc/thread-self")}/stat`;
  } catch {
    return null;
  }
}

/** The CPU time, in milliseconds, of the thread whose stat file is `file`; null if unreadable. */
export function threadCpuMsAt(file: string): number | null {
  try {
    const stat = readFileSync(file, "latin1");
    // After the parenthesised name: state (field 3) … utime (14), stime (15).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / PROC_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
