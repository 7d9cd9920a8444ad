/**
 * Loading a stored module costs bytes / 200 + 10 milligas of its stored bytes (Pact's
 * `MOpLoadModule`). Where Braid writes a module in Pact 5's stored form (the bytes its `logs`
 * cover), the charge is on those bytes' real length, in the process that deployed it and after a
 * restart, when the module is compiled again from Braid's own record.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { devCommand } from "../node/test-support/dev-node.ts";
import { openSqlitePactDb, type VersionedPactDb } from "../pact/db/index.ts";
import { PactGasMeter, TABLE_GAS_MODEL } from "../pact/index.ts";
import { PactTime } from "../pact/values/index.ts";
import { FREE_GAS } from "./gas-settings.ts";
import { executeCommand } from "./run.ts";
import type { CommandOutcome } from "./types.ts";

/**
 * A module on one line with 400 literals: each node's source line (0) takes one byte in Pact's
 * stored form, where the estimate of a module not written in that form counts two.
 */
const MODULE = `(module m G (defcap G () true) (defun f () (length [${Array.from(
  { length: 400 },
  (_, i) => i,
).join(" ")}])))`;

const LOAD = "GModuleOp (MOpLoadModule)";

/** Runs `code` in block `height` with the table costs; gives the outcome and each charge. */
function run(
  db: VersionedPactDb,
  height: number,
  code: string,
): { outcome: CommandOutcome; charges: [string, number][] } {
  const charges: [string, number][] = [];
  const meter = new PactGasMeter(TABLE_GAS_MODEL, 100_000_000);
  meter.recorder = { record: (milligas, what) => charges.push([what, milligas]) };
  db.beginBlock(height);
  const outcome = executeCommand(devCommand({ code, nonce: `n${height}`, gasLimit: 100_000 }), {
    db,
    mode: "transactional",
    block: {
      height: BigInt(height),
      time: new PactTime(1_700_000_000_000_000n),
      prevBlockHash: "p",
    },
    gas: FREE_GAS,
    meter,
    flags: new Set(),
  });
  db.commitBlock();
  if (outcome.result.status !== "success") assert.fail(outcome.result.error.message);
  return { outcome, charges };
}

describe("the gas of loading a module Braid stored in Pact 5's form", () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-module-load-gas-"));
  const path = join(dir, "pact.sqlite");
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("is its stored bytes' length / 200 + 10, before and after the database is opened again", () => {
    let db = openSqlitePactDb(path);
    const deployed = run(db, 1, MODULE).outcome;
    const stored = deployed.txLogs.find((e) => e.domain === "SYS:Modules" && e.key === "m");
    assert.ok(stored !== undefined, "the deploy logs the module's stored bytes");
    const expected = Math.floor(stored.value.byteLength / 200) + 10;

    const loads = (charges: [string, number][]) =>
      charges.filter(([what]) => what === LOAD).map(([, milligas]) => milligas);
    assert.deepEqual(loads(run(db, 2, "(m.f)").charges), [expected]);
    db.close();

    db = openSqlitePactDb(path);
    assert.deepEqual(loads(run(db, 3, "(m.f)").charges), [expected]);
    db.close();
  });
});
