/**
 * The gas profile of a transaction (issue #36) against `braid node` in a child process with its
 * state on disk (so the profile runs on an execution thread): a token ledger deployed and a
 * transfer made with `@kadena/client`, then the transfer's profile read through the explorer's
 * JSON and through `braid dev profile`, its figures adding up to the transfer's gas exactly.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runBraid } from "../support/braid-cli.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { clientFor } from "./support/kadena.ts";
import { deployAndTransfer } from "./support/token-ledger.ts";

interface Frame {
  kind: string;
  name: string;
  calls: number;
  selfMilligas: number;
  totalMilligas: number;
  children: Frame[];
}

/** Every frame's total is its self plus its children's totals. */
function checkSums(frame: Frame): void {
  const children = frame.children.reduce((sum, c) => sum + c.totalMilligas, 0);
  assert.equal(frame.totalMilligas, frame.selfMilligas + children, frame.name);
  for (const child of frame.children) checkSums(child);
}

/** The tree as lines `kind name calls self total`, indented by depth. */
function outline(frame: Frame, depth = 0): string[] {
  const line = `${"  ".repeat(depth)}${frame.kind} ${frame.name} ${frame.calls} ${frame.selfMilligas} ${frame.totalMilligas}`;
  return [line, ...frame.children.flatMap((c) => outline(c, depth + 1))];
}

/** The transfer's frames below the transaction: `kind name calls self total` (milligas). */
const EXPECTED_FRAMES = [
  "  charge the command's size 1 5000 5000",
  "  charge buying gas (coin.buy-gas) 1 69603 69603",
  "  top-level exec code 1 144 114719",
  "    function free.ledger.transfer 1 425 114575",
  "      capability free.ledger.TRANSFER 1 100 17521",
  "        native read 1 14600 14600",
  "        native at 1 110 110",
  "        native enforce-guard 1 2000 2000",
  "        native > 1 291 291",
  "        function free.ledger.TRANSFER-mgr 1 0 420",
  "          native - 1 130 130",
  "          native >= 1 290 290",
  "      native with-read 2 29550 92829",
  "        native at 2 228 228",
  "        native <= 1 291 291",
  "        native - 1 130 130",
  "        native update 2 62500 62500",
  "        native + 1 130 130",
  "      native format 1 3800 3800",
  "  charge rounded up to whole gas 1 678 678",
];

describe("gas profile of a transfer", { timeout: 120_000 }, () => {
  let node: NodeProcess;
  let dataDir: string;
  let transfer: { key: string; gas: number };

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "braid-e2e-profile-"));
    node = await startNode({ dataDir, built: true });
    transfer = await deployAndTransfer(clientFor(node.url, "pact"));
  });
  after(async () => {
    await node?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("is served by the explorer's JSON, adding up to the transfer's gas", async () => {
    const response = await fetch(`${node.url}/braid/api/chain/0/tx/${transfer.key}/profile`);
    assert.equal(response.status, 200);
    const answer = (await response.json()) as {
      gas: number;
      matchesStored: boolean;
      profile: Frame;
    };
    assert.equal(answer.gas, transfer.gas);
    assert.equal(answer.matchesStored, true);
    assert.equal(answer.profile.totalMilligas, transfer.gas * 1000);
    checkSums(answer.profile);
    assert.equal(answer.profile.name, transfer.key);
    assert.deepEqual(outline(answer.profile).slice(1), EXPECTED_FRAMES);
  });

  it("answers 404 for a request key no block holds, and for a chain that is not", async () => {
    const unknown = "A".repeat(43);
    const missing = await fetch(`${node.url}/braid/api/chain/0/tx/${unknown}/profile`);
    assert.equal(missing.status, 404);
    const otherChain = await fetch(`${node.url}/braid/api/chain/1/tx/${transfer.key}/profile`);
    assert.equal(otherChain.status, 404);
    const noChain = await fetch(`${node.url}/braid/api/chain/20/tx/${transfer.key}/profile`);
    assert.equal(noChain.status, 404);
    const badKey = await fetch(`${node.url}/braid/api/chain/0/tx/not-a-key/profile`);
    assert.equal(badKey.status, 400);
  });

  it("is printed by braid dev profile, its chain found from the request key", () => {
    const run = runBraid(process.cwd(), ["dev", "profile", transfer.key, "--node", node.url]);
    assert.equal(run.stderr, "");
    assert.equal(run.code, 0);
    const lines = run.stdout.split("\n");
    assert.equal(lines[0], `gas profile of ${transfer.key} (chain 0, height 3)`);
    assert.equal(lines[1], "executed again at its block's state: the same output as stored");
    const rows = lines.map((l) => l.trim().split(/ {2,}/));
    assert.deepEqual(
      rows.find((r) => r[0] === "cap free.ledger.TRANSFER"),
      ["cap free.ledger.TRANSFER", "1", "0.100", "17.521", "9.2 %"],
    );
    assert.deepEqual(
      rows.find((r) => r[0] === "update"),
      ["update", "2", "62.500", "62.500", "32.9 %"],
    );
    assert.deepEqual(rows.at(-2), ["total: the transaction's gas", "190"]);
    assert.equal(transfer.gas, 190);
  });

  it("prints the node's JSON with --json", async () => {
    const run = runBraid(process.cwd(), [
      "dev",
      "profile",
      transfer.key,
      "--chain",
      "0",
      "--json",
      "--node",
      node.url,
    ]);
    assert.equal(run.code, 0);
    const served = await fetch(`${node.url}/braid/api/chain/0/tx/${transfer.key}/profile`);
    assert.deepEqual(JSON.parse(run.stdout), await served.json());
  });
});
