import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, rmSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  checkPayloadBytes,
  openPayloadLog,
  payloadChecksum,
  syncEachInBackground,
} from "./payload-log.ts";

const bytes = (...values: number[]) => new Uint8Array(values);

describe("payload logs", () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-payload-log-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const kind of ["file", "memory"] as const) {
    const open = () => openPayloadLog(kind === "memory" ? ":memory:" : join(dir, "chain.sqlite"));

    it(`${kind}: appends each chain's bytes one after another and reads any stretch back`, () => {
      const log = open();
      assert.equal(log.append(3, bytes(1, 2, 3)), 0);
      assert.equal(log.append(4, bytes(9)), 0);
      assert.equal(log.append(3, bytes(4, 5)), 3);
      assert.deepEqual(log.read(3, 2, 2), bytes(3, 4));
      assert.deepEqual(log.read(3, 0, 5), bytes(1, 2, 3, 4, 5));
      assert.deepEqual(log.read(4, 0, 1), bytes(9));
      assert.throws(() => log.read(3, 4, 2), {
        message:
          "chain 3's payload log holds 5 bytes, but a payload is stored at 4..6: the disk lost writes (a power failure?)",
      });
      assert.throws(() => log.read(7, 0, 1), /chain 7's payload log holds 0 bytes/);
      log.close();
    });
  }

  it("appends at the size it knows: bytes a failed append left are written over", () => {
    const path = join(dir, "partial.sqlite");
    const log = openPayloadLog(path);
    assert.equal(log.append(0, bytes(1, 2, 3)), 0);
    // What an append cut short by a full disk leaves at the file's end.
    appendFileSync(join(`${path}-payloads`, "0.log"), bytes(9, 9));
    assert.equal(log.append(0, bytes(4, 5)), 3);
    assert.deepEqual(log.read(0, 0, 5), bytes(1, 2, 3, 4, 5));
    log.close();
  });

  it("file: holds a batch's appends until its work returns, then writes them at the offsets it gave", () => {
    const path = join(dir, "held.sqlite");
    const size = (chainId: number) => statSync(join(`${path}-payloads`, `${chainId}.log`)).size;
    const log = openPayloadLog(path);
    log.append(0, bytes(1));
    const offsets = log.holding(() => {
      const inner = log.holding(() => [log.append(0, bytes(2, 3)), log.append(5, bytes(7))]);
      // Nested work holds into the outermost: nothing written yet.
      assert.equal(size(0), 1);
      assert.equal(size(5), 0);
      return [...inner, log.append(0, bytes(4))];
    });
    assert.deepEqual(offsets, [1, 0, 3]);
    assert.equal(size(0), 4);
    assert.deepEqual(log.read(0, 0, 4), bytes(1, 2, 3, 4));
    assert.deepEqual(log.read(5, 0, 1), bytes(7));
    log.close();
  });

  it("file: a read of held bytes writes them first; work that throws leaves its held bytes unwritten", () => {
    const path = join(dir, "held-dropped.sqlite");
    const file = join(`${path}-payloads`, "0.log");
    const log = openPayloadLog(path);
    log.holding(() => {
      log.append(0, bytes(1, 2));
      assert.deepEqual(log.read(0, 0, 2), bytes(1, 2));
      assert.equal(statSync(file).size, 2);
    });
    assert.throws(
      () =>
        log.holding(() => {
          log.append(0, bytes(8, 9));
          throw new Error("refused");
        }),
      { message: "refused" },
    );
    assert.equal(statSync(file).size, 2);
    assert.throws(() => log.read(0, 2, 2), /holds 2 bytes, but a payload is stored at 2..4/);
    assert.equal(log.append(0, bytes(3)), 2);
    assert.deepEqual(log.read(0, 0, 3), bytes(1, 2, 3));
    log.close();
  });

  it("checks bytes against their checksum", () => {
    const stored = bytes(1, 2, 3, 4);
    const checksum = payloadChecksum(stored);
    assert.equal(checksum, 3057449933);
    checkPayloadBytes(2, 100, stored, checksum);
    assert.throws(() => checkPayloadBytes(2, 100, bytes(1, 2, 3, 5), checksum), {
      name: "CorruptPayloadError",
      message:
        "the stored payload at 100..104 of chain 2's payload log is corrupted (their checksum does not match): the data directory is damaged; restore it from a backup",
    });
  });

  it("syncs files in the background one at a time, in order", async () => {
    const events: string[] = [];
    let underWay = 0;
    await syncEachInBackground([5, 7, 9], async (fd) => {
      underWay++;
      events.push(`start ${fd} (${underWay} under way)`);
      await new Promise((resolve) => setTimeout(resolve, 2));
      underWay--;
      events.push(`end ${fd}`);
    });
    assert.deepEqual(events, [
      "start 5 (1 under way)",
      "end 5",
      "start 7 (1 under way)",
      "end 7",
      "start 9 (1 under way)",
      "end 9",
    ]);
  });

  it("file: syncs only the logs appended to since their last sync, in the background or not", async () => {
    const log = openPayloadLog(join(dir, "sync.sqlite"));
    for (let chainId = 0; chainId < 20; chainId++) log.append(chainId, bytes(chainId));
    assert.equal(await log.syncInBackground(), 20);
    assert.equal(await log.syncInBackground(), 0);
    assert.equal(log.sync(), 0);
    log.append(4, bytes(44));
    log.append(9, bytes(99));
    assert.equal(log.sync(), 2);
    assert.equal(await log.syncInBackground(), 0);
    assert.deepEqual(log.read(4, 0, 2), bytes(4, 44));
    log.close();
  });

  it("file: a reopened log is synced once, whatever an earlier process left unsynced", () => {
    const path = join(dir, "resync.sqlite");
    const first = openPayloadLog(path);
    first.append(2, bytes(7));
    first.close();
    const second = openPayloadLog(path);
    second.read(2, 0, 1);
    assert.equal(second.sync(), 1);
    assert.equal(second.sync(), 0);
    second.close();
  });

  it("memory: has nothing to sync", async () => {
    const log = openPayloadLog(":memory:");
    log.append(0, bytes(1));
    assert.equal(log.sync(), 0);
    assert.equal(await log.syncInBackground(), 0);
  });

  it("file: reopened, appends after what is there, bytes no row names included", () => {
    const path = join(dir, "reopen.sqlite");
    const first = openPayloadLog(path);
    first.append(0, bytes(1, 2, 3, 4));
    first.close();
    const second = openPayloadLog(path);
    assert.deepEqual(second.read(0, 0, 4), bytes(1, 2, 3, 4));
    assert.equal(second.append(0, bytes(5)), 4);
    second.close();
    truncateSync(join(`${path}-payloads`, "0.log"), 2);
    const third = openPayloadLog(path);
    assert.throws(() => third.read(0, 1, 3), /holds 2 bytes, but a payload is stored at 1..4/);
    third.close();
  });
});
