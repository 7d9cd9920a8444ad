/**
 * The genesis contracts run through the Pact CLI in a child process: our REPL
 * script of their behaviour, each contract file alone, and the genesis
 * transactions replayed in order. And read by Kadena's code generator
 * (`pactjs contract-generate --file`), which must parse every one of them.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { BRAID_ADMIN_KEY, DEV_ACCOUNTS, keysetOf } from "../../src/node/genesis/accounts.ts";
import {
  buyGasCall,
  type CoinCall,
  coinbaseCall,
  DEV_BLOCK_REWARD,
  redeemGasCall,
} from "../../src/node/genesis/coin-calls.ts";
import {
  CONTRACT_FILES,
  CONTRACTS_DIR,
  contractPath,
  contractSource,
} from "../../src/node/genesis/contracts.ts";
import { genesisTransactions } from "../../src/node/genesis/transactions.ts";
import { runBraid } from "../support/braid-cli.ts";
import { contractGenerate, declaredFunctions, definedFunctions } from "./support/pactjs.ts";

const dir = mkdtempSync(join(tmpdir(), "braid-genesis-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a REPL file with the CLI; the exit code and both outputs. */
const runRepl = (path: string) => runBraid(dir, [path]);

function writeRepl(name: string, lines: readonly string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/** A Pact literal for test data built from our own constants (JSON is valid Pact here). */
function literal(value: unknown): string {
  return JSON.stringify(value);
}

const ADMIN_DATA = literal({
  "braid-admin": { keys: [BRAID_ADMIN_KEY.publicKey], pred: "keys-all" },
});

describe("genesis contracts", () => {
  it("pass our REPL script (coin, ns, namespaces, gas, cross-chain)", () => {
    const result = runRepl(join(CONTRACTS_DIR, "coin.test.repl"));
    assert.deepEqual(result, { code: 0, stdout: "Load successful\n", stderr: "" });
  });

  it("each load after the interfaces they need, in CONTRACT_FILES order", () => {
    const lines = [`(env-data ${ADMIN_DATA})`, "(begin-tx)", '(define-keyset "braid-admin")'];
    for (const file of CONTRACT_FILES) {
      lines.push(`(load ${literal(contractPath(file))})`);
    }
    lines.push(
      "(commit-tx)",
      '(expect "coin implements both interfaces" ["fungible-v2" "fungible-xchain-v1"]',
      '  (at "interfaces" (describe-module "coin")))',
    );
    const result = runRepl(writeRepl("load-all.repl", lines));
    assert.deepEqual(result, { code: 0, stdout: "Load successful\n", stderr: "" });
  });

  it("are parsed by pactjs contract-generate: typings declare every function", async () => {
    const project = join(dir, "pactjs");
    mkdirSync(project);
    for (const file of CONTRACT_FILES) writeFileSync(join(project, file), contractSource(file));
    const generated = await contractGenerate(
      project,
      CONTRACT_FILES.flatMap((file) => ["--file", file]),
    );
    assert.deepEqual(generated.files, [
      "coin.d.ts",
      "fungible-v2.d.ts",
      "fungible-xchain-v1.d.ts",
      "gas-payer-v1.d.ts",
      "index.d.ts",
      "ns.d.ts",
      "package.json",
    ]);
    for (const file of CONTRACT_FILES) {
      const name = file.slice(0, -".pact".length);
      assert.deepEqual(
        declaredFunctions(generated.read(`${name}.d.ts`), name),
        definedFunctions(contractSource(file)),
        name,
      );
    }
  });
});

describe("genesis transactions replayed in a REPL", () => {
  it("install everything, fund sender00 … sender09, then serve the node's coin calls", () => {
    const lines: string[] = [];
    for (const tx of genesisTransactions("7")) {
      lines.push(`(env-data ${literal(tx.data)})`, `(begin-tx ${literal(tx.name)})`);
      for (const cap of tx.grants) lines.push(`(test-capability (${cap}))`);
      lines.push(tx.code, "(commit-tx)");
    }
    const guards: Record<string, unknown> = { "braid-admin": keysetOf(BRAID_ADMIN_KEY) };
    for (const account of DEV_ACCOUNTS) guards[account.name] = keysetOf(account);
    lines.push(`(env-data ${literal(guards)})`, "(begin-tx)");
    for (const account of DEV_ACCOUNTS) {
      const name = literal(account.name);
      lines.push(
        `(expect "balance of ${account.name}" ${account.balance} (coin.get-balance ${name}))`,
        `(expect "guard of ${account.name}" (read-keyset ${name})`,
        `  (at "guard" (coin.details ${name})))`,
      );
    }
    lines.push(
      '(expect "braid-admin" (read-keyset "braid-admin") (describe-keyset "braid-admin"))',
      '(expect "the namespaces" ["kadena" "free" "user"]',
      '  (map (lambda (n) (at "namespace-name" (describe-namespace n))) ["kadena" "free" "user"]))',
      '(expect-failure "no util namespace at genesis" "Namespace not found: util" (describe-namespace "util"))',
      '(expect "the registry\'s operators" (read-keyset "sender00") (describe-keyset "ns-operate-keyset"))',
      '(expect "the registry\'s admins" (read-keyset "sender00") (describe-keyset "ns-admin-keyset"))',
      '(namespace "free")',
      "(module genesis-probe GOV (defcap GOV () true) (defun probe:integer () 7))",
      '(expect "a module in free" 7 (free.genesis-probe.probe))',
      "(commit-tx)",
    );
    // Then one block: the reward, and gas around a command of sender03.
    const miner = { keys: [BRAID_ADMIN_KEY.publicKey], pred: "keys-all" };
    const sender03 = DEV_ACCOUNTS[3]!;
    const run = (name: string, call: CoinCall, sigs: string) => {
      lines.push(
        `(env-data ${literal(call.data)})`,
        `(env-sigs ${sigs})`,
        `(begin-tx ${literal(name)})`,
      );
      for (const cap of call.grants) lines.push(`(test-capability (${cap}))`);
      lines.push(`(expect ${literal(name)} "Write succeeded" ${call.code})`, "(commit-tx)");
    };
    run("coinbase", coinbaseCall("miner-1", miner, DEV_BLOCK_REWARD), "[]");
    run(
      "buy-gas",
      buyGasCall("sender03", "0.15"),
      `[{"key": ${literal(sender03.publicKey)}, "caps": [(coin.GAS) (coin.DEBIT "sender03")]}]`,
    );
    run("redeem-gas", redeemGasCall("miner-1", miner, "sender03", "0.15", "0.0123"), "[]");
    lines.push(
      "(begin-tx)",
      '(expect "the miner has reward and fee" 1.1645615 (coin.get-balance "miner-1"))',
      '(expect "sender03 paid the fee" 129999999.9877 (coin.get-balance "sender03"))',
      "(commit-tx)",
    );
    const result = runRepl(writeRepl("genesis.repl", lines));
    assert.deepEqual(result, { code: 0, stdout: "Load successful\n", stderr: "" });
  });
});
