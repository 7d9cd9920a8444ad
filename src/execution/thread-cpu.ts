/**
 * The CPU time the calling thread has run, in milliseconds: what a command's time limit counts
 * once the wall clock has passed it. A thread's own time, not the process's: on an execution
 * thread the process's time also counts the node's thread, the other execution threads and the
 * garbage collector's helpers, which would time out a command that ran less than its limit. Node
 * 20 has no call for it (`process.threadCpuUsage` came in Node 23.9): on Linux it is read from
 * `/proc/thread-self/stat`; elsewhere the process's time stands in.
 */
import { openSync, readFileSync, readlinkSync, readSync } from "node:fs";

/** The unit of /proc's CPU times: USER_HZ, 100 on every Linux userspace ABI. */
const PROC_TICKS_PER_SECOND = 100;
/** More than a stat line's length (52 fields, the name at most 64 bytes). */
const PROC_STAT_BYTES = 1024;

type ThreadCpuUsage = () => { user: number; system: number };

export function threadCpuMs(): number {
  const own = (process as { threadCpuUsage?: ThreadCpuUsage }).threadCpuUsage;
  if (own !== undefined) {
    const { user, system } = own.call(process);
    return (user + system) / 1000;
  }
  const stat = ownStat();
  if (stat !== null) {
    try {
      const length = readSync(stat.fd, stat.buffer, 0, PROC_STAT_BYTES, 0);
      const ms = cpuMsOfStat(stat.buffer.toString("latin1", 0, length));
      if (ms !== null) return ms;
    } catch {
      // Unreadable after all: the process's time stands in from now on.
    }
    ownStatFile = null;
  }
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * This thread's /proc stat file, kept open: read again at offset 0 for each reading (3–4 µs
 * here), where opening, reading and closing it each time cost 30 µs, and 60 µs on a loaded
 * machine. Each thread has its own (a worker has module state of its own), which Node closes
 * when a worker exits, stopped from outside or not (work-thread.test.ts checks it); undefined
 * until first used, null off Linux or when it cannot be read.
 */
let ownStatFile: { readonly fd: number; readonly buffer: Buffer } | null | undefined =
  process.platform === "linux" ? undefined : null;

function ownStat(): { readonly fd: number; readonly buffer: Buffer } | null {
  if (ownStatFile === undefined) {
    try {
      // `thread-self` names the opening thread for as long as the descriptor is open.
      ownStatFile = {
        fd: openSync("/proc/thread-self/stat", "r"),
        buffer: Buffer.allocUnsafe(PROC_STAT_BYTES),
      };
    } catch {
      ownStatFile = null;
    }
  }
  return ownStatFile;
}

/**
 * How old a reading {@link threadCpuAtStartMs} may give back, in milliseconds of wall time.
 * Reading the thread's time is a system call (a few µs; when it opened and closed the file each
 * time, 14 % of an execution thread's time under a `local` load before this); a reading this old
 * makes a command's limit count at most this much of the thread's time before it started, less
 * than /proc's own resolution (10 ms).
 */
export const CPU_READING_REUSE_MS = 2;

/**
 * `read`, giving back its last reading while that is at most `reuseMs` of wall time old instead
 * of reading again (an unreadable reading, null, is not kept). A reading is never one taken after
 * the call, so a CPU time counted from it may include up to `reuseMs` of what ran before, and
 * misses nothing after.
 */
export function reusedReading<T extends number | null>(read: () => T, reuseMs: number): () => T {
  let last: { readonly atMs: number; readonly value: T } | undefined;
  return () => {
    const now = performance.now();
    if (last !== undefined && now - last.atMs <= reuseMs) return last.value;
    const value = read();
    last = value === null ? undefined : { atMs: now, value };
    return value;
  };
}

/**
 * The thread's CPU time when a command starts: a reading at most {@link CPU_READING_REUSE_MS}
 * old (so a command's CPU time may count a little of what ran before it, never miss what it ran).
 */
export const threadCpuAtStartMs = reusedReading(threadCpuMs, CPU_READING_REUSE_MS);

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
    return cpuMsOfStat(readFileSync(file, "latin1"));
  } catch {
    return null;
  }
}

/** The user and system CPU time of a /proc stat line, in milliseconds; null if it has none. */
function cpuMsOfStat(stat: string): number | null {
  // After the parenthesised name: state (field 3) … utime (14), stime (15).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / PROC_TICKS_PER_SECOND;
  return Number.isFinite(ms) ? ms : null;
}
