import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { openMemoryPactDb, openSqlitePactDb, type PactDb } from "../db/index.ts";
import { ReplSession } from "./session.ts";

const script = join(dirname(fileURLToPath(import.meta.url)), "testdata", "reentrancy.repl");

const BACKENDS: ReadonlyArray<readonly [string, () => PactDb]> = [
  ["memory", () => openMemoryPactDb()],
  ["SQLite", () => openSqlitePactDb(":memory:")],
];

for (const [backend, openDb] of BACKENDS) {
  describe(`re-entry through module references on ${backend}`, () => {
    it("runs reentrancy.repl: every expectation holds", () => {
      const output: string[] = [];
      const session = new ReplSession(
        { line: (text) => output.push(text), readFile: (p) => readFileSync(p, "utf8") },
        { openDb },
      );
      session.loadFile(script, true);
      assert.deepEqual(
        session.failures().map((f) => `${f.span.line}: ${f.failure}`),
        [],
      );
      assert.deepEqual(output, []);
      // Every expectation ran, the last one included.
      assert.equal(session.results.length, 21);
      assert.equal(session.results.at(-1)?.name, "and clearing it turns it back on");
    });
  });
}
