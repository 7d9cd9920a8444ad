import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { genesisHeader } from "../../chain/header/genesis.ts";
import { makePayloadWithOutputs } from "../../chain/payload/payload.ts";
import { missingDataSkip, SHARED_DIR } from "../../chain/test-support/skip-or-require.ts";
import { DEVELOPMENT } from "../../chain/version/known-versions.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import { openMemoryPactDb } from "../../pact/db/index.ts";
import { transactionBytes } from "../executor/block/block-executor.ts";
import { executeChainwebGenesis } from "../executor/block/genesis-execution.ts";
import {
  ChainwebGenesisError,
  type ChainwebGenesisPayload,
  type OutputDifference,
  outputDifferences,
  readChainwebGenesisModule,
  readChainwebGenesisPayload,
} from "./chainweb-genesis.ts";

const FOLDER = join(SHARED_DIR, "reference", "chainweb-genesis");

/** chainweb-node's `development` payloads: chain 0's, and the one of chains 1–19. */
const FILES = [
  { file: "Development0Payload.json", chains: [0] },
  { file: "Development1to19Payload.json", chains: Array.from({ length: 19 }, (_, i) => i + 1) },
];

function read(file: string): ChainwebGenesisPayload {
  return readChainwebGenesisPayload(readFileSync(join(FOLDER, file), "utf8"), file);
}

function describeDifference(d: OutputDifference): string {
  return `transaction ${d.transaction}, ${d.field}: Braid ${d.braid}, chainweb-node ${d.chainweb}`;
}

describe("chainweb-node's development genesis executed by Braid", {
  skip: missingDataSkip(FILES.map(({ file }) => join(FOLDER, file))),
}, () => {
  for (const { file, chains } of FILES) {
    it(`${file}: its commands as Braid writes them, with the recorded outputs, make the payload hash`, () => {
      const payload = read(file);
      const made = makePayloadWithOutputs(
        payload.transactions.map((tx) => ({
          transaction: transactionBytes(tx.command),
          output: tx.output,
        })),
        payload.minerData,
        payload.coinbase,
      );
      assert.equal(encodeBase64Url(made.payloadHash), payload.expectedPayloadHash);
    });

    for (const chain of chains) {
      it(`${file}, chain ${chain}: every output and the payload hash chainweb-node's`, () => {
        const payload = read(file);
        const db = openMemoryPactDb();
        db.beginBlock(0);
        const outputs = executeChainwebGenesis(
          db,
          genesisHeader(DEVELOPMENT, chain),
          payload.transactions.map((tx) => tx.command),
        );
        db.commitBlock();
        const differences = outputs.flatMap((out, i) =>
          outputDifferences(i, out.output, payload.transactions[i]!.output),
        );
        assert.equal(differences.length, 0, differences[0] && describeDifference(differences[0]));
        const made = makePayloadWithOutputs(
          outputs.map(({ transaction, output }) => ({ transaction, output })),
          payload.minerData,
          payload.coinbase,
        );
        assert.equal(encodeBase64Url(made.payloadHash), payload.expectedPayloadHash);
      });
    }
  }

  it("names the first difference: the transaction, the field and both values", () => {
    const recorded = read("Development0Payload.json").transactions[6]!.output;
    const changed = new TextEncoder().encode(
      new TextDecoder().decode(recorded).replace('"txId":6', '"txId":7'),
    );
    assert.deepEqual(outputDifferences(6, changed, recorded), [
      { transaction: 6, field: "txId", braid: "7", chainweb: "6" },
    ]);
  });
});

describe("reading a generated genesis module (Haskell source)", {
  skip: missingDataSkip([join(FOLDER, "Development0Payload.json")]),
}, () => {
  it("gives the payload its JSON form gives: the same bytes, commands and recorded hashes", () => {
    const payload = read("Development0Payload.json");
    // Only the bindings the reader looks for, each holding the JSON form's bytes: the rest of a
    // generated module is not read, so the test writes none of it.
    const text = [
      `expectedHash = unsafeFromText "${payload.expectedPayloadHash}"`,
      `minerData = unsafeFromText "${encodeBase64Url(payload.minerData)}"`,
      `coinbase = unsafeFromText "${encodeBase64Url(payload.coinbase)}"`,
      ...payload.transactions.map(
        (tx) =>
          `(unsafeFromText "${encodeBase64Url(transactionBytes(tx.command))}", unsafeFromText "${encodeBase64Url(tx.output)}")`,
      ),
    ].join("\n");
    const module = readChainwebGenesisModule(text, "payload.hs");
    const parts = (p: ChainwebGenesisPayload) => ({
      expectedPayloadHash: p.expectedPayloadHash,
      minerData: p.minerData,
      coinbase: p.coinbase,
      transactions: p.transactions.map((tx) => [tx.command.hash, tx.command.cmd, tx.output]),
    });
    assert.deepEqual(parts(module), parts(payload));
    assert.equal(module.transactions.length, 9);
  });

  it("refuses what is not one, naming the file and the part", () => {
    assert.throws(
      () => readChainwebGenesisModule("module X where\n", "X.hs"),
      new ChainwebGenesisError(
        'X.hs: no expectedHash = unsafeFromText "…" (not a generated genesis module)',
      ),
    );
  });
});

describe("reading a genesis payload's JSON form", () => {
  it("refuses what is not one, naming the file and the part", () => {
    assert.throws(
      () => readChainwebGenesisPayload("[]", "x.json"),
      new ChainwebGenesisError("x.json: the document is not an object"),
    );
    assert.throws(
      () =>
        readChainwebGenesisPayload(
          '{"expectedPayloadHash":"h","minerData":{},"coinbase":{},"transactions":[{"command":{"hash":"h","sigs":[],"cmd":"{}"},"output":{}}]}',
          "x.json",
        ),
      (e: Error) =>
        e instanceof ChainwebGenesisError &&
        e.message.startsWith("x.json: transactions[0].command.cmd: "),
    );
  });
});
