import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { accessLogLine, fileLogSink, LOG_FLUSH_MS } from "./access-log.ts";

describe("accessLogLine", () => {
  it("writes Apache's common log format with the time taken", () => {
    assert.equal(
      accessLogLine({
        ip: "127.0.0.1",
        method: "POST",
        url: "/api/v1/send",
        httpVersion: "1.1",
        status: 200,
        bytes: 57,
        millis: 1.25,
        time: new Date(Date.UTC(2024, 4, 1, 9, 5, 3)),
      }),
      '127.0.0.1 - - [01/May/2024:09:05:03 +0000] "POST /api/v1/send HTTP/1.1" 200 57 1.3ms',
    );
  });

  it("writes - for an unknown length", () => {
    assert.match(
      accessLogLine({
        ip: "::1",
        method: "GET",
        url: "/version",
        httpVersion: "1.0",
        status: 404,
        bytes: null,
        millis: 0,
        time: new Date(0),
      }),
      /^::1 - - \[01\/Jan\/1970:00:00:00 \+0000\] "GET \/version HTTP\/1\.0" 404 - 0\.0ms$/,
    );
  });
});

describe("fileLogSink", () => {
  it("appends the lines in order, all written by close", async () => {
    const dir = mkdtempSync(join(tmpdir(), "braid-log-"));
    try {
      const path = join(dir, "access.log");
      writeFileSync(path, "earlier\n");
      const sink = fileLogSink(path);
      sink.line("one");
      sink.line("two");
      // Written without close, once the batch is due (polled: a loaded machine writes late).
      const due = Date.now() + LOG_FLUSH_MS + 2_000;
      while (readFileSync(path, "utf8") === "earlier\n" && Date.now() < due) {
        await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_MS));
      }
      assert.equal(readFileSync(path, "utf8"), "earlier\none\ntwo\n");
      sink.line("three");
      await sink.close();
      assert.equal(readFileSync(path, "utf8"), "earlier\none\ntwo\nthree\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
