/**
 * End to end: `braid node --genesis <folder>` started from chainweb-node's own `development`
 * genesis payloads (their JSON form in `../shared/reference/chainweb-genesis/`). Its 20 chains'
 * genesis blocks carry chainweb-node's payload hashes and the genesis header hashes its rules
 * give, a coin transfer from sender00 goes through on it, a payload whose recorded output Braid
 * does not reproduce stops the start naming the transaction, the field and both values (leaving
 * no data directory), and a data directory made from one genesis refuses to open with the other.
 */
import assert from "node:assert/strict";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ICommandResult } from "@kadena/client";
import { missingDataSkip, SHARED_DIR } from "../../src/chain/test-support/skip-or-require.ts";
import { readChainwebGenesisFolder } from "../../src/node/genesis/chainweb-genesis-files.ts";
import { DEVNET_MINER } from "../../src/node/option-definitions.ts";
import { runBraid } from "../support/braid-cli.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { clientFor, SENDER00, SENDER01, signWith, transferCommand } from "./support/kadena.ts";

const FOLDER = join(SHARED_DIR, "reference", "chainweb-genesis");
const FILES = ["Development0Payload.json", "Development1to19Payload.json"];

/**
 * chainweb-node's `development` genesis header hashes of chains 0, 1, 10 and 19. chainweb-node
 * has no golden file for this version (it has for mainnet01, testnet04 and recap-development);
 * these are the values `../shared/reference/chainweb-wire.md` (§ test vectors) computes with the
 * genesis rules it checked against those golden files.
 */
const GENESIS_HEADER_HASHES = new Map([
  [0, "sI6c8YyJ48Poan9J7F6-u9bRJ5Ss5XLZP3wa_jBLRi0"],
  [1, "elo5KOxfEQbkeTOlEeuWJTbcwviB-OTy3XNusP70JRc"],
  [10, "l2C-LfN88WlXgO7dcClceyLclkhv2ema4BbDTr6xpJw"],
  [19, "MG-LpqbsSeG8LTHrYIf_u6V7rVMh6meA7JX76N8shU0"],
]);

interface GenesisBlock {
  readonly header: { readonly hash: string; readonly payloadHash: string; readonly height: number };
}

describe("a node started from chainweb-node's development genesis", {
  skip: missingDataSkip(FILES.map((file) => join(FOLDER, file))),
  timeout: 120_000,
}, () => {
  const scratch = mkdtempSync(join(tmpdir(), "braid-chainweb-genesis-"));
  const dataDir = join(scratch, "data");
  let node: NodeProcess;
  before(async () => {
    node = await startNode({ dataDir, args: ["--genesis", FOLDER], startTimeoutMs: 60_000 });
  });
  after(async () => {
    await node?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("says so in its banner", () => {
    assert.ok(node.output().includes(`\n  genesis      chainweb-node's, from ${FOLDER}\n`));
  });

  it("serves 20 chains whose genesis payload hashes are chainweb-node's expected ones", async () => {
    const expected = readChainwebGenesisFolder(FOLDER).map((p) => p.expectedPayloadHash);
    for (let chain = 0; chain < 20; chain++) {
      const response = await fetch(
        `${node.url}/chainweb/0.0/development/chain/${chain}/block?minheight=0&maxheight=0`,
      );
      assert.equal(response.status, 200);
      const page = (await response.json()) as { items: GenesisBlock[] };
      assert.equal(page.items.length, 1);
      const { header } = page.items[0]!;
      assert.equal(header.height, 0);
      assert.equal(header.payloadHash, expected[chain], `chain ${chain}`);
      const hash = GENESIS_HEADER_HASHES.get(chain);
      if (hash !== undefined) assert.equal(header.hash, hash, `chain ${chain}'s genesis header`);
    }
  });

  it("takes a coin transfer from sender00", async () => {
    const client = clientFor(node.url, "pact");
    const submitted = await client.submit(
      await signWith(SENDER00, transferCommand(SENDER00, SENDER01.name, "1.0")),
    );
    const result: ICommandResult = await client.listen(submitted);
    assert.deepEqual(result.result, { status: "success", data: "Write succeeded" });
    assert.equal(result.gas, 231);
    // The transfer, then the fee (231 gas at the default price of 1e-8) to the devnet's miner.
    assert.deepEqual(
      result.events?.map((e) => [e.module.name, e.name, e.params]),
      [
        ["coin", "TRANSFER", ["sender00", "sender01", 1]],
        ["coin", "TRANSFER", ["sender00", DEVNET_MINER.account, 0.00000231]],
      ],
    );
  });

  it("refuses to open its data directory with Braid's own genesis", async () => {
    await node.stop();
    const run = runBraid(scratch, ["node", "--data-dir", dataDir, "--port", "0"], "", 60_000);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr.trim().split("\n").at(-1),
      `braid: cannot open the node: ${dataDir} was made from chainweb-node's genesis (--genesis); it cannot be opened with Braid's own: start with --genesis, or give another dataDir`,
    );
  });
});

describe("a chainweb-node genesis Braid does not reproduce", {
  skip: missingDataSkip(FILES.map((file) => join(FOLDER, file))),
  timeout: 120_000,
}, () => {
  const scratch = mkdtempSync(join(tmpdir(), "braid-chainweb-genesis-"));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it("stops the start naming the transaction, the field and both values, and leaves no data directory", () => {
    const dataDir = join(scratch, "data");
    for (const file of FILES) copyFileSync(join(FOLDER, file), join(scratch, file));
    const changed = join(scratch, FILES[0]!);
    const text = readFileSync(changed, "utf8");
    // The recorded output of chain 0's transaction 6, the one whose txId is 6, made to say 7.
    const edited = text.replace(/"txId": 6$/m, '"txId": 7');
    assert.notEqual(edited, text);
    writeFileSync(changed, edited);
    const run = runBraid(
      scratch,
      ["node", "--genesis", scratch, "--data-dir", dataDir, "--port", "0"],
      "",
      60_000,
    );
    assert.equal(run.code, 1);
    assert.match(
      run.stderr.trim().split("\n").at(-1)!,
      /^braid: cannot open the node: chainweb-node's genesis, chain 0, transaction 6 \([\w-]{43}\): its txId differs: Braid 6, chainweb-node 7$/,
    );
    assert.equal(existsSync(dataDir), false);
  });
});
