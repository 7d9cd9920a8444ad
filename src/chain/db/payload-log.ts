/**
 * Where the chain database keeps payload bytes: one append-only file per chain, in a folder
 * beside the SQLite file (`<file>-payloads/<chain>.log`), or in memory for an in-memory
 * database. The `payloads` table names each payload's chain, offset and length in its log.
 *
 * Why not in the table: the 20 chains grow together, so SQLite allocated their pages
 * interleaved and a chain's consecutive payloads lay about 20 pages apart in the file. A page of
 * 100 blocks read from a cold disk paid a random read per 4 kB. In a chain's own log they are
 * adjacent, and a page of blocks is one read.
 *
 * Crash safety: bytes are appended before the SQLite transaction that names them commits (an
 * insert transaction's appends are held and written together at the end of its work). A
 * process killed in between leaves bytes no row names, which are never read; the next append
 * goes after them. An append that fails part way (a full disk) leaves bytes no row names either:
 * appends write at the size the log knows, not at the file's end, so the next one goes over
 * them. `sync` (or `syncInBackground`) makes the logs durable; the chain database's
 * checkpoints call it before copying frames back, so the database file never names bytes a
 * power failure could take back.
 *
 * Integrity: the row naming a payload's bytes keeps their CRC-32 ({@link payloadChecksum}), and
 * every read checks it ({@link checkPayloadBytes}): bytes changed on the disk are refused with a
 * {@link CorruptPayloadError}, never served.
 */
import {
  closeSync,
  constants,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";

export interface PayloadLog {
  /** Appends `bytes` to chain `chainId`'s log; returns their offset. */
  append(chainId: number, bytes: Uint8Array): number;
  /**
   * Runs `work` with its appends held in memory, then writes them, one write per chain: a batch
   * of blocks pays a system call per chain instead of one per payload (a read of held bytes
   * writes them first).
   * When `work` throws, its held bytes are dropped (no committed row names them); when the
   * write fails, nothing of it stays and the error is thrown. Nested calls hold into the
   * outermost one. The chain database runs each insert transaction's work in here, so the bytes
   * are written before the transaction that names them commits.
   */
  holding<T>(work: () => T): T;
  /** The `length` bytes at `offset` of chain `chainId`'s log. */
  read(chainId: number, offset: number, length: number): Uint8Array;
  /**
   * Makes every appended byte durable, syncing the logs appended to since their last completed
   * sync; returns how many it synced.
   */
  sync(): number;
  /**
   * Like {@link sync}, on libuv's thread pool, one file at a time ({@link syncEachInBackground}):
   * this thread goes on meanwhile.
   */
  syncInBackground(): Promise<number>;
  close(): void;
}

/** The payload log of the chain database at `path` (":memory:" for one in memory). */
export function openPayloadLog(path: string): PayloadLog {
  return path === ":memory:" ? new MemoryPayloadLog() : new FilePayloadLog(`${path}-payloads`);
}

/** `fdatasync` on libuv's thread pool. */
export function fdatasyncInBackground(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (e) => (e ? reject(e) : resolve())));
}

/**
 * `sync` (by default {@link fdatasyncInBackground}) of each file in turn, so the syncs hold at
 * most one of libuv's four pool threads. The node checks the signatures of incoming commands on
 * the same pool: the 21 syncs of a checkpoint started together held a `send` up for about 20 ms.
 */
export async function syncEachInBackground(
  fds: Iterable<number>,
  sync: (fd: number) => Promise<void> = fdatasyncInBackground,
): Promise<void> {
  for (const fd of fds) await sync(fd);
}

/** The checksum a payload row keeps of its bytes in the log: their CRC-32. */
export function payloadChecksum(bytes: Uint8Array): number {
  return crc32(bytes);
}

/** Bytes read from a payload log that are not the ones written there. */
export class CorruptPayloadError extends Error {
  override readonly name = "CorruptPayloadError";
}

/**
 * Throws {@link CorruptPayloadError} when `bytes`, read at `offset` of chain `chainId`'s log, do
 * not have the checksum their row keeps.
 */
export function checkPayloadBytes(
  chainId: number,
  offset: number,
  bytes: Uint8Array,
  checksum: number,
): void {
  if (crc32(bytes) !== checksum) {
    throw corruptPayload(chainId, offset, bytes.length, "their checksum does not match");
  }
}

/** The error for `length` bytes at `offset` of a chain's payload log that are damaged. */
export function corruptPayload(
  chainId: number,
  offset: number,
  length: number,
  why: string,
): CorruptPayloadError {
  return new CorruptPayloadError(
    `the stored payload at ${offset}..${offset + length} of chain ${chainId}'s payload log is corrupted (${why}): the data directory is damaged; restore it from a backup`,
  );
}

/** A missing stretch of a log: the file is shorter than the database says. */
function missing(chainId: number, offset: number, length: number, size: number): Error {
  return new Error(
    `chain ${chainId}'s payload log holds ${size} bytes, but a payload is stored at ${offset}..${offset + length}: the disk lost writes (a power failure?)`,
  );
}

/** A chain's log file: its size with the held bytes, what of it is written, and synced. */
interface LogFile {
  readonly fd: number;
  /** The size once the held bytes are written: where the next append goes. */
  size: number;
  /** The size on the disk (as far as this process wrote it). */
  written: number;
  /** How much of it the last completed sync covered. */
  synced: number;
  /** Bytes appended while holding, in order from `written` on. */
  held: Uint8Array[];
}

class FilePayloadLog implements PayloadLog {
  private readonly files = new Map<number, LogFile>();
  /** Nesting depth of {@link holding}: appends are held while it is above 0. */
  private holds = 0;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  private file(chainId: number) {
    let file = this.files.get(chainId);
    if (file === undefined) {
      // Read and write anywhere (not O_APPEND: an append writes at the size known here).
      const fd = openSync(join(this.dir, `${chainId}.log`), constants.O_RDWR | constants.O_CREAT);
      // What an earlier process wrote may not be durable yet: the first sync covers it.
      const size = fstatSync(fd).size;
      file = { fd, size, written: size, synced: -1, held: [] };
      this.files.set(chainId, file);
    }
    return file;
  }

  append(chainId: number, bytes: Uint8Array): number {
    const file = this.file(chainId);
    const offset = file.size;
    if (this.holds > 0) file.held.push(bytes);
    else writeAt(file, [bytes]);
    file.size += bytes.length;
    return offset;
  }

  holding<T>(work: () => T): T {
    this.holds++;
    let result: T;
    try {
      result = work();
    } catch (e) {
      if (this.holds === 1) this.dropHeld();
      throw e;
    } finally {
      this.holds--;
    }
    if (this.holds === 0) this.writeHeld();
    return result;
  }

  /** Writes every chain's held bytes; on a failure, drops what is still held and throws. */
  private writeHeld(): void {
    try {
      for (const file of this.files.values()) {
        if (file.held.length === 0) continue;
        writeAt(file, file.held);
        file.held = [];
      }
    } catch (e) {
      this.dropHeld();
      throw e;
    }
  }

  private dropHeld(): void {
    for (const file of this.files.values()) {
      file.held = [];
      file.size = file.written;
    }
  }

  read(chainId: number, offset: number, length: number): Uint8Array {
    const file = this.file(chainId);
    if (offset + length > file.size) throw missing(chainId, offset, length, file.size);
    // Held bytes asked for (a block of the batch read back) are written first: rare enough.
    if (offset + length > file.written) {
      writeAt(file, file.held);
      file.held = [];
    }
    const bytes = new Uint8Array(length);
    for (let done = 0; done < length; ) {
      const got = readSync(file.fd, bytes, done, length - done, offset + done);
      if (got === 0) throw missing(chainId, offset, length, offset + done);
      done += got;
    }
    return bytes;
  }

  sync(): number {
    const due = this.unsynced();
    for (const { file } of due) fdatasyncSync(file.fd);
    return this.markSynced(due);
  }

  async syncInBackground(): Promise<number> {
    const due = this.unsynced();
    await syncEachInBackground(due.map(({ file }) => file.fd));
    return this.markSynced(due);
  }

  /** The files with bytes their last completed sync did not cover, with their sizes now. */
  private unsynced() {
    return [...this.files.values()]
      .filter((file) => file.synced < file.written)
      .map((file) => ({ file, size: file.written }));
  }

  /** Marks a completed sync (a failed one marks nothing, so the next sync retries it). */
  private markSynced(done: readonly { file: { synced: number }; size: number }[]): number {
    for (const { file, size } of done) file.synced = Math.max(file.synced, size);
    return done.length;
  }

  close(): void {
    this.sync();
    for (const { fd } of this.files.values()) closeSync(fd);
    this.files.clear();
  }
}

/**
 * Writes `parts` one after another at the end of what the file holds. On a failure, what was
 * written no row names, and the next append goes over it; giving the space back now helps a
 * full disk.
 */
function writeAt(file: LogFile, parts: readonly Uint8Array[]): void {
  const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  const offset = file.written;
  try {
    for (let done = 0; done < bytes.length; ) {
      done += writeSync(file.fd, bytes, done, bytes.length - done, offset + done);
    }
  } catch (e) {
    try {
      ftruncateSync(file.fd, offset);
    } catch {
      // Left for the next append to write over.
    }
    throw e;
  }
  file.written += bytes.length;
}

class MemoryPayloadLog implements PayloadLog {
  private readonly logs = new Map<number, { bytes: Uint8Array; size: number }>();

  append(chainId: number, bytes: Uint8Array): number {
    let log = this.logs.get(chainId);
    if (log === undefined) {
      log = { bytes: new Uint8Array(64 * 1024), size: 0 };
      this.logs.set(chainId, log);
    }
    if (log.size + bytes.length > log.bytes.length) {
      const grown = new Uint8Array(Math.max(2 * log.bytes.length, log.size + bytes.length));
      grown.set(log.bytes.subarray(0, log.size));
      log.bytes = grown;
    }
    const offset = log.size;
    log.bytes.set(bytes, offset);
    log.size += bytes.length;
    return offset;
  }

  read(chainId: number, offset: number, length: number): Uint8Array {
    const log = this.logs.get(chainId);
    const size = log?.size ?? 0;
    if (log === undefined || offset + length > size) throw missing(chainId, offset, length, size);
    return log.bytes.slice(offset, offset + length);
  }

  holding<T>(work: () => T): T {
    return work();
  }

  sync(): number {
    return 0;
  }

  syncInBackground(): Promise<number> {
    return Promise.resolve(0);
  }

  close(): void {
    this.logs.clear();
  }
}
