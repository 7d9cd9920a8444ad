/** A full disk, made for real: the tests of a node whose data directory runs out of space. */
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Fills the file system holding `dir` to its last byte with one file; returns its path. */
export function fillDisk(dir: string): string {
  const path = join(dir, "filler");
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(1024 * 1024, 7);
  try {
    for (const size of [chunk.length, 64 * 1024, 4096, 512, 1]) {
      for (;;) {
        try {
          writeSync(fd, chunk, 0, size);
        } catch (e) {
          if ((e as { code?: string }).code !== "ENOSPC") throw e;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}
