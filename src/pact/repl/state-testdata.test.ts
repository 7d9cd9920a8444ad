import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { openMemoryPactDb, openSqlitePactDb, type PactDb } from "../db/index.ts";
import { ReplSession } from "./session.ts";

const testdata = join(dirname(fileURLToPath(import.meta.url)), "testdata");

/** The contract-state scripts, each run on both storage backends. */
const SCRIPTS = ["state-db.repl", "state-keysets.repl"];

const BACKENDS: ReadonlyArray<readonly [string, () => PactDb]> = [
  ["memory", () => openMemoryPactDb()],
  ["SQLite", () => openSqlitePactDb(":memory:")],
];

function runScript(file: string, openDb: () => PactDb) {
  const output: string[] = [];
  const session = new ReplSession(
    { line: (text) => output.push(text), readFile: (p) => readFileSync(p, "utf8") },
    { openDb },
  );
  session.loadFile(join(testdata, file), true);
  return { session, output };
}

for (const [backend, openDb] of BACKENDS) {
  describe(`contract state scripts on ${backend}`, () => {
    for (const file of SCRIPTS) {
      it(`runs ${file}: every expectation holds`, () => {
        const { session, output } = runScript(file, openDb);
        assert.deepEqual(
          session.failures().map((f) => `${f.span.line}: ${f.failure}`),
          [],
        );
        assert.deepEqual(output, []);
        assert.ok(session.results.length > 10);
      });
    }
  });
}
