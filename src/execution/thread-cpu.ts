/**
 * The CPU time the calling thread has run, in milliseconds: what a command's time limit counts
 * once the wall clock has passed it. A thread's own time, not the process's: on an execution
 * thread the process's time also counts the node's thread, the other execution threads and the
 * garbage collector's helpers, which would time out a command that ran less than its limit. Node
 * 20 has no call for it (`process.threadCpuUsage` came in Node 23.9): on Linux it is read from
 * the thread's `schedstat` in /proc (its time on a CPU in nanoseconds; where the kernel keeps no
 * scheduler statistics, from its `stat`, user and system time in 10 ms ticks); elsewhere the
 * process's time stands in.
 */
import { existsSync, openSync, readFileSync, readlinkSync, readSync } from "node:fs";

/** The unit of /proc's `stat` CPU times: USER_HZ, 100 on every Linux userspace ABI. */
const PROC_TICKS_PER_SECOND = 100;
/** More than a stat line's length (52 fields, the name at most 64 bytes). */
const PROC_STAT_BYTES = 1024;
/**
 * A thread's CPU time files in /proc, the better first: `schedstat` is exact to the nanosecond
 * and cheaper to read (2.7–3.5 µs here beside a thread that allocates, against 4.5–5.4 µs for
 * `stat`, which computes the process's memory figures too); `stat` counts 10 ms ticks.
 */
const PROC_CPU_FILES = ["schedstat", "stat"] as const;

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
      const ms = cpuMsOf(stat.file, stat.buffer.toString("latin1", 0, length));
      if (ms !== null) return ms;
    } catch {
      // Unreadable after all: the process's time stands in from now on.
    }
    ownStatFile = null;
  }
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

interface OpenCpuFile {
  /** Its name (`schedstat` or `stat`: how it is read). */
  readonly file: string;
  readonly fd: number;
  readonly buffer: Buffer;
}

/**
 * This thread's CPU time file, kept open: read again at offset 0 for each reading, where
 * opening, reading and closing it each time cost 30 µs, and 60 µs on a loaded machine. Each
 * thread has its own (a worker has module state of its own), which Node closes when a worker
 * exits, stopped from outside or not (work-thread.test.ts checks it); undefined until first
 * used, null off Linux or when it cannot be read.
 */
let ownStatFile: OpenCpuFile | null | undefined = process.platform === "linux" ? undefined : null;

function ownStat(): OpenCpuFile | null {
  if (ownStatFile !== undefined) return ownStatFile;
  ownStatFile = null;
  for (const name of PROC_CPU_FILES) {
    try {
      // `thread-self` names the opening thread for as long as the descriptor is open.
      const file = `/proc/thread-self/${name}`;
      ownStatFile = { file, fd: openSync(file, "r"), buffer: Buffer.allocUnsafe(PROC_STAT_BYTES) };
      break;
    } catch {
      // Not kept by this kernel: the next.
    }
  }
  return ownStatFile;
}

/**
 * How old a reading {@link threadCpuAtStartMs} may give back, in milliseconds of wall time.
 * Reading the thread's time is a system call (a few µs; when it opened and closed the file each
 * time, 14 % of an execution thread's time under a `local` load before this); a reading this old
 * makes a command's limit count at most this much of the thread's time before it started.
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
 * The /proc file of the calling thread's CPU time under a name the process's other threads can
 * read too (`/proc/PID/task/TID/schedstat`, or `…/stat`: `/proc/thread-self` names the reader's
 * own thread); null off Linux.
 */
export function ownThreadStatFile(): string | null {
  if (process.platform !== "linux") return null;
  try {
    const dir = `/proc/${readlinkSync("/proc/thread-self")}`;
    const name = PROC_CPU_FILES.find((n) => existsSync(`${dir}/${n}`));
    return name === undefined ? null : `${dir}/${name}`;
  } catch {
    return null;
  }
}

/**
 * The CPU time, in milliseconds, of the thread whose CPU time file (`schedstat` or `stat`) is
 * `file`; null if unreadable.
 */
export function threadCpuMsAt(file: string): number | null {
  try {
    return cpuMsOf(file, readFileSync(file, "latin1"));
  } catch {
    return null;
  }
}

/** The CPU time in a thread's `schedstat` or `stat` text, in milliseconds; null if it has none. */
function cpuMsOf(file: string, text: string): number | null {
  let ms: number;
  if (file.endsWith("/schedstat")) {
    // Time on a CPU (ns), time waiting for one (ns), time slices.
    ms = Number(text.slice(0, text.indexOf(" "))) / 1e6;
  } else {
    // After the parenthesised name: state (field 3) … utime (14), stime (15).
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / PROC_TICKS_PER_SECOND;
  }
  return Number.isFinite(ms) ? ms : null;
}
