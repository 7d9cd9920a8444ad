import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeLogger } from "../logger.ts";
import type { StoredBlock } from "../node-chain.ts";
import type { LogLevel } from "../options.ts";
import { type BlockOrigin, logStoredBlock, outcomeText } from "./block-log.ts";

const utf8 = new TextEncoder();
const KEY = "LkKi5ohrcef1dnQDJzw2cqBD8fkkT89hPJgFh1qkUDE";

/** A stored block of chain 3 at height 40 holding `outputs` (only what the log reads is real). */
function block(outputs: readonly object[]): StoredBlock {
  return {
    header: { chainId: 3, height: 40, hash: new Uint8Array(32) },
    payload: {
      transactions: outputs.map((o) => ({
        transaction: new Uint8Array(),
        output: utf8.encode(JSON.stringify(o)),
      })),
    },
    requestKeys: outputs.map(() => KEY),
    rejected: [],
  } as unknown as StoredBlock;
}

function logged(level: LogLevel, stored: StoredBlock, origin: BlockOrigin): string[] {
  const lines: string[] = [];
  logStoredBlock(makeLogger(level, { isTTY: false, write: (t) => lines.push(t) }), stored, origin);
  return lines;
}

const FAILURE = {
  gas: 2500,
  result: {
    status: "failure",
    error: { type: "TxFailure", message: 'line one\nchain  0  "forged"', info: "free.m.f:7" },
  },
};

describe("block log lines", () => {
  it("a block with transactions: its line, then one per transaction, at info", () => {
    assert.deepEqual(logged("info", block([{ gas: 232, result: { status: "success" } }]), "peer"), [
      "chain  3  height     40  txs   1  AAAAAAAAAAAA  from peer\n",
      `chain  3  height     40  tx  ${KEY}  success  gas     232\n`,
    ]);
  });

  it("a failure's location and message, quoted so that a line break stays on its line", () => {
    assert.equal(
      outcomeText(utf8.encode(JSON.stringify(FAILURE))),
      'failure  gas    2500  at free.m.f:7  "line one\\nchain  0  \\"forged\\""',
    );
  });

  it("empty blocks at debug, except those this node solved (pow)", () => {
    assert.deepEqual(logged("info", block([]), "mined"), []);
    assert.deepEqual(logged("debug", block([]), "mined"), [
      "chain  3  height     40  txs   0  AAAAAAAAAAAA  mined\n",
    ]);
    assert.deepEqual(logged("info", block([]), "solved"), [
      "chain  3  height     40  txs   0  AAAAAAAAAAAA  mined\n",
    ]);
  });

  it("reads nothing of the block when the level is off", () => {
    const untouchable = new Proxy(block([FAILURE]), {
      get: (target, name) => {
        if (name === "payload" || name === "header") throw new Error(`read ${String(name)}`);
        return Reflect.get(target, name);
      },
    });
    assert.deepEqual(logged("warn", untouchable, "peer"), []);
  });
});
