/**
 * A block's outputs are a function of the chain's state alone: the node that made a block, with
 * its rows in the row cache, and a node that executes it again with its rows read from its
 * SQLite file, must give the same bytes. A decimal's places are part of a row (Pact stores them,
 * and 1.10 + 1.0 is 2.10 where 1.1 + 1.0 is 2.1), so they must survive storage.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { parseCommand, signCommand } from "../command/index.ts";
import { openSqlitePactDb, type VersionedPactDb } from "../pact/db/index.ts";
import { PactTime } from "../pact/values/index.ts";
import { FREE_GAS } from "./gas-settings.ts";
import { encodeCommandResult } from "./result-json.ts";
import { executeCommand } from "./run.ts";

const LEDGER = `(module ledger G
  (defcap G () true)
  (defschema entry x:decimal y:decimal z:decimal w:decimal o:object)
  (deftable entries:{entry})
  (defun open (id:string)
    (insert entries id
      {"x": 1.0, "y": 1.10, "z": 100000000.0, "w": 0.0, "o": {"int": "5", "keys": ["k"]}}))
  (defun set-w (id:string w:decimal)
    (update entries id {"w": w}))
  (defun bump (id:string)
    (with-read entries id {"x" := x, "y" := y, "z" := z, "o" := o}
      (write entries id
        {"x": (+ x 1.25), "y": (+ y 1.0), "z": (+ z 0.5), "w": 0.0, "o": (+ {"n": (at "int" o)} o)}))))
(create-table entries)`;

/**
 * Block 1 writes decimals whose last places are zeros and an object that looks like an integer
 * and a keyset; block 2 reads them back and writes again.
 */
const BLOCKS: readonly (readonly string[])[] = [
  [LEDGER, `(ledger.open "a")`],
  // `update` writes the fields it was not given as they were read
  [`(ledger.set-w "a" 2.5)`, `(ledger.bump "a")`],
];

function command(code: string, nonce: string) {
  const cmd = JSON.stringify({
    payload: { exec: { code, data: null } },
    meta: {
      creationTime: 1700000000,
      ttl: 600,
      gasLimit: 1500,
      chainId: "0",
      gasPrice: 1e-8,
      sender: "alice",
    },
    signers: [],
    networkId: "development",
    nonce,
  });
  const parsed = parseCommand(JSON.parse(JSON.stringify(signCommand(cmd, [], "blake2b"))));
  if (!parsed.ok) assert.fail(parsed.problems.map((p) => p.message).join("; "));
  return parsed.command;
}

/** Executes block `height` (1-based index into BLOCKS) and gives each command's result JSON. */
function executeBlock(db: VersionedPactDb, height: number): string[] {
  db.beginBlock(height);
  const outputs = (BLOCKS[height - 1] as readonly string[]).map((code, i) => {
    const outcome = executeCommand(command(code, `${height}-${i}`), {
      db,
      mode: "transactional",
      block: {
        height: BigInt(height),
        time: new PactTime(1_700_000_000_000_000n),
        prevBlockHash: "p",
      },
      gas: FREE_GAS,
      flags: new Set(),
    });
    if (outcome.result.status !== "success") {
      assert.fail(`block ${height}, command ${i}: ${outcome.result.error.message}`);
    }
    return encodeCommandResult(outcome);
  });
  db.commitBlock();
  return outputs;
}

describe("a block executed again from stored rows", () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-stored-rows-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("gives the outputs of the node that made it: decimals keep their places (1.0, 1.10, 100000000.0, 0.0), objects stay objects", () => {
    const maker = openSqlitePactDb(join(dir, "maker.sqlite"));
    executeBlock(maker, 1);
    const made = executeBlock(maker, 2);
    maker.close();

    const replayerFile = join(dir, "replayer.sqlite");
    const first = openSqlitePactDb(replayerFile);
    executeBlock(first, 1);
    first.close();
    const reopened = openSqlitePactDb(replayerFile);
    const replayed = executeBlock(reopened, 2);

    assert.deepEqual(replayed, made);
    // and what is read back is what was written: 1.10 + 1.0 stays 2.10, the object an object
    const row = reopened.readRow("ledger_entries", "a");
    const fields = [...(row ?? [])].map(([field, value]) => {
      if (!(value instanceof Map)) return `${field}=${String(value)}`;
      return `${field}=${[...value.keys()].sort().join(",")}`;
    });
    assert.deepEqual(fields.sort(), ["o=int,keys,n", "w=0.0", "x=2.25", "y=2.10", "z=100000000.5"]);
    reopened.close();
  });
});
