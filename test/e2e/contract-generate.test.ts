/**
 * End to end: Kadena's code generator reads the genesis contracts from a running `braid node`.
 * `pactjs contract-generate --contract NAME --api …/chain/0/pact` fetches NAME's code with a
 * `local` `(describe-module "NAME")` (and, the same way, the interfaces a module implements),
 * parses it and writes `@kadena/client` typings. It must do so for every module and interface
 * the node serves, declaring each function of its contract file.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { CONTRACT_FILES, contractSource } from "../../src/node/genesis/contracts.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { clientFor, readCommand } from "./support/kadena.ts";
import { contractGenerate, declaredFunctions, definedFunctions } from "./support/pactjs.ts";

/**
 * Each genesis module or interface: the typings its generation writes (its own, those of the
 * interfaces it implements, an index and a package.json), and a few functions they must declare.
 */
const GENERATED: Readonly<
  Record<string, { files: readonly string[]; declares: readonly string[] }>
> = {
  "fungible-v2": {
    files: ["fungible-v2.d.ts", "index.d.ts", "package.json"],
    declares: ["transfer", "details", "transfer-crosschain"],
  },
  "fungible-xchain-v1": {
    files: ["fungible-xchain-v1.d.ts", "index.d.ts", "package.json"],
    declares: ["TRANSFER_XCHAIN-mgr"],
  },
  "gas-payer-v1": {
    files: ["gas-payer-v1.d.ts", "index.d.ts", "package.json"],
    declares: ["create-gas-payer-guard"],
  },
  coin: {
    files: [
      "coin.d.ts",
      "fungible-v2.d.ts",
      "fungible-xchain-v1.d.ts",
      "index.d.ts",
      "package.json",
    ],
    declares: ["transfer", "details", "coinbase", "transfer-crosschain"],
  },
  ns: {
    files: ["index.d.ts", "ns.d.ts", "package.json"],
    declares: ["validate", "create-principal-namespace"],
  },
};

let node: NodeProcess;
const dir = mkdtempSync(join(tmpdir(), "braid-contract-generate-"));

before(async () => {
  node = await startNode();
});
after(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The typings of genesis module `name` declare exactly the functions of its contract file. */
function checkTypings(dts: string, name: string): void {
  const file = CONTRACT_FILES.find((f) => f === `${name}.pact`);
  assert.ok(file !== undefined, `${name} is a genesis contract`);
  assert.deepEqual(declaredFunctions(dts, name), definedFunctions(contractSource(file)), name);
}

describe("pactjs contract-generate against the node", { timeout: 120_000 }, () => {
  test("the node serves exactly the modules and interfaces generated below", async () => {
    const listed = await clientFor(node.url, "pact").local(readCommand("(list-modules)"), {
      preflight: false,
      signatureVerification: false,
    });
    assert.deepEqual(listed.result, {
      status: "success",
      data: Object.keys(GENERATED).sort(),
    });
  });

  for (const [name, { files, declares }] of Object.entries(GENERATED)) {
    test(`--contract ${name} writes typings of every function`, async () => {
      const project = join(dir, name);
      mkdirSync(project);
      const generated = await contractGenerate(project, [
        "--contract",
        name,
        "--api",
        `${node.url}/chainweb/0.0/development/chain/0/pact`,
        "--chain",
        "0",
        "--network",
        "development",
      ]);
      assert.deepEqual(generated.files, files);
      for (const file of files.filter((f) => f.endsWith(".d.ts") && f !== "index.d.ts")) {
        checkTypings(generated.read(file), file.slice(0, -".d.ts".length));
      }
      const { defuns, defpacts } = declaredFunctions(generated.read(`${name}.d.ts`), name);
      for (const fn of declares) assert.ok([...defuns, ...defpacts].includes(fn), fn);
    });
  }
});
