import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCommand, signCommand } from "../command/index.ts";
import type { ParsedCommand } from "../command/types.ts";
import { encodeHex, keyPairFromSeed } from "../crypto/index.ts";
import { openMemoryPactDb, type PactDb } from "../pact/db/index.ts";
import { PactTime } from "../pact/values/index.ts";
import { onChainError } from "./errors.ts";
import { FREE_GAS, FREE_GAS_WITH_COMMAND_LIMIT, type GasSettings } from "./gas-settings.ts";
import { encodeCommandResult } from "./result-json.ts";
import { executeCommand } from "./run.ts";
import { threadCpuMs } from "./thread-cpu.ts";
import type { CommandOutcome } from "./types.ts";

const BLOCK = { height: 7n, time: new PactTime(1_700_000_000_000_000n), prevBlockHash: "prev" };

interface CommandSpec {
  readonly data?: unknown;
  readonly nonce?: string;
  readonly payload?: unknown;
  /** Signs with alice, her signature scoped to these capabilities. */
  readonly signedByAlice?: readonly { name: string; args: unknown[] }[];
}

const alice = keyPairFromSeed(new Uint8Array(32).fill(1));
const ALICE = encodeHex(alice.publicKey);

/** A command with no signers, hashed with Blake2b-256 as @kadena/client does. */
function command(code: string, spec: CommandSpec = {}): ParsedCommand {
  const cmd = JSON.stringify({
    payload: spec.payload ?? { exec: { code, data: spec.data ?? null } },
    meta: {
      creationTime: 1700000000,
      ttl: 600,
      gasLimit: 1500,
      chainId: "3",
      gasPrice: 1e-8,
      sender: "alice",
    },
    signers: spec.signedByAlice === undefined ? [] : [{ pubKey: ALICE, clist: spec.signedByAlice }],
    networkId: "development",
    nonce: spec.nonce ?? code,
  });
  const keys = spec.signedByAlice === undefined ? [] : [alice];
  const parsed = parseCommand(JSON.parse(JSON.stringify(signCommand(cmd, keys, "blake2b"))));
  if (!parsed.ok) assert.fail(parsed.problems.map((p) => p.message).join("; "));
  return parsed.command;
}

function run(
  db: PactDb,
  code: string,
  options: { mode?: "transactional" | "local"; gas?: GasSettings; spec?: CommandSpec } = {},
): CommandOutcome {
  return executeCommand(command(code, options.spec), {
    db,
    mode: options.mode ?? "transactional",
    block: BLOCK,
    gas: options.gas ?? FREE_GAS,
    flags: new Set(),
  });
}

function data(outcome: CommandOutcome): unknown {
  if (outcome.result.status !== "success") {
    assert.fail(`failed: ${outcome.result.error.message}`);
  }
  return JSON.parse(encodeCommandResult(outcome)).result.data;
}

function failure(outcome: CommandOutcome) {
  if (outcome.result.status !== "failure") assert.fail("succeeded");
  return outcome.result.error;
}

/** Accounts opened by alice's keyset, deposits announced by an event, and a two-step defpact. */
const BANK = `(define-keyset "bank-admin" (read-keyset "ks"))
(module bank GOV
  (defcap GOV () true)
  (defschema account balance:integer)
  (deftable accounts:{account})
  (defcap PAY (id:string amount:integer) @event true)
  (defun open (id:string)
    (enforce-keyset "bank-admin")
    (insert accounts id {"balance": 0}))
  (defun deposit (id:string amount:integer)
    (with-capability (PAY id amount)
      (update accounts id {"balance": (+ amount (balance id))})))
  (defun balance:integer (id:string) (at "balance" (read accounts id)))
  (defpact two-steps (x:integer)
    (step (+ x 1))
    (step (* x 10))))`;

function deployBank(db: PactDb): void {
  const ks = { keys: [ALICE], pred: "keys-all" };
  assert.equal(
    data(run(db, `${BANK}\n(create-table accounts)`, { spec: { data: { ks } } })),
    "TableCreated",
  );
}

const MODULE = `(module m G
  (defcap G () true)
  (defun check:integer (x:integer) (enforce (> x 1) "too small") x))`;

describe("executeCommand", () => {
  it("gives the result JSON of a successful command in Pact's key order", () => {
    const db = openMemoryPactDb();
    const outcome = run(db, "(+ 1 2)", { spec: { nonce: "n1" } });
    assert.equal(
      encodeCommandResult(outcome),
      `{"gas":0,"result":{"status":"success","data":{"int":3}},"reqKey":"${outcome.reqKey}","logs":"DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g","metaData":null,"continuation":null,"txId":0}`,
    );
    assert.equal(outcome.reqKey, command("(+ 1 2)", { nonce: "n1" }).hash);
  });

  it("returns the last form's value and numbers transactions from 0", () => {
    const db = openMemoryPactDb();
    assert.equal(data(run(db, '(+ 1 2) (concat ["a" "b"])')), "ab");
    assert.equal(run(db, "1").txId, 1);
    assert.equal(run(db, "2").txId, 2);
  });

  it("deploys a module (result: its load message) that later commands call", () => {
    const db = openMemoryPactDb();
    const loaded = data(run(db, MODULE)) as string;
    assert.match(loaded, /^Loaded module m, hash [A-Za-z0-9_-]{43}$/);
    assert.deepEqual(data(run(db, "(m.check 5)")), { int: 5 });
  });

  it("reads the transaction data, the chain data and the hash", () => {
    const db = openMemoryPactDb();
    assert.deepEqual(data(run(db, "(read-msg 'k)", { spec: { data: { k: [1, "x"] } } })), [1, "x"]);
    assert.deepEqual(data(run(db, "(chain-data)")), {
      "gas-price": 1e-8,
      "gas-limit": { int: 1500 },
      sender: "alice",
      "prev-block-hash": "prev",
      "chain-id": "3",
      "block-height": { int: 7 },
      "block-time": { time: "2023-11-14T22:13:20Z" },
    });
    const outcome = run(db, "(tx-hash)");
    assert.equal(data(outcome), outcome.reqKey);
  });

  it("reports a failed enforce as a TxFailure from the function, and writes nothing: logs hashes no writes", () => {
    const db = openMemoryPactDb();
    const hash = (data(run(db, MODULE)) as string).slice(-43);
    const outcome = run(db, "(m.check 0)");
    assert.deepEqual(failure(outcome), {
      type: "TxFailure",
      message: "too small",
      info: `m.check.{${hash}}:2`,
    });
    assert.equal(
      encodeCommandResult(outcome),
      `{"gas":0,"result":{"status":"failure","error":{"callStack":[],"type":"TxFailure","message":"too small","info":"m.check.{${hash}}:2"}},"reqKey":"${outcome.reqKey}","logs":"DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g","metaData":null,"continuation":null,"txId":null}`,
    );
  });

  it("rolls back every write of a command that fails", () => {
    const db = openMemoryPactDb();
    const outcome = run(db, `${MODULE}\n(enforce false "stop")`);
    assert.deepEqual(failure(outcome), {
      type: "TxFailure",
      message: "stop",
      info: "<toplevel>:3",
    });
    assert.equal(db.readModule("m"), null);
    assert.equal(run(db, "1").txId, 0, "the failed command used no transaction id");
  });

  it("rolls back a local command's writes and reports no tx id", () => {
    const db = openMemoryPactDb();
    const outcome = run(db, MODULE, { mode: "local" });
    assert.equal(outcome.txId, null);
    assert.match(data(outcome) as string, /^Loaded module m/);
    assert.equal(db.readModule("m"), null);
    assert.equal(run(db, "1").txId, 0);
  });

  it("reports syntax errors and empty code", () => {
    const db = openMemoryPactDb();
    assert.deepEqual(failure(run(db, "\n(+ 1")), {
      type: "SyntaxError",
      message: "expected ')' to close '(' opened at 2:1, found the end of the input",
      info: "<toplevel>:1",
    });
    assert.deepEqual(failure(run(db, " ")), {
      type: "EvalError",
      message: "empty input",
      info: "<toplevel>:0",
    });
  });

  it("cuts long messages to 256 characters", () => {
    const db = openMemoryPactDb();
    const message = failure(run(db, `(enforce false "${"é".repeat(300)}")`)).message;
    assert.equal(message, "é".repeat(256));
  });

  it("meters gas per action when asked, and fails past the limit", () => {
    const db = openMemoryPactDb();
    const metered: GasSettings = { kind: "metered", limit: null, perAction: 2 };
    assert.equal(run(db, "(+ 1 (+ 2 3))", { gas: metered }).gas, 4);
    const limited: GasSettings = { kind: "metered", limit: 3, perAction: 2 };
    const outcome = run(db, "(+ 1 (+ 2 3))", { gas: limited });
    assert.deepEqual(failure(outcome), {
      type: "EvalError",
      message: 'Gas limit "3" exceeded: 4',
      info: "<toplevel>:0",
    });
    assert.equal(outcome.gas, 4);
  });

  it("keeps table rows, reports events, and checks keysets against the signers", () => {
    const db = openMemoryPactDb();
    deployBank(db);
    assert.equal(
      data(run(db, '(bank.open "a")', { spec: { signedByAlice: [] } })),
      "Write succeeded",
    );
    const moduleHash = String(data(run(db, '(at "hash" (describe-module "bank"))')));
    const deposit = run(db, '(bank.deposit "a" 5)');
    assert.equal(
      encodeCommandResult(deposit),
      `{"gas":0,"result":{"status":"success","data":"Write succeeded"},"reqKey":"${deposit.reqKey}","logs":"${deposit.logs}","events":[{"params":["a",{"int":5}],"name":"PAY","module":{"namespace":null,"name":"bank"},"moduleHash":"${moduleHash}"}],"metaData":null,"continuation":null,"txId":3}`,
    );
    assert.deepEqual(data(run(db, '(bank.balance "a")')), { int: 5 });
    assert.equal(
      failure(run(db, '(bank.open "b")')).message,
      "Keyset failure ( keys-all ):  8a88e3dd74...",
    );
    const scoped = run(db, '(bank.open "b")', {
      spec: { signedByAlice: [{ name: "bank.PAY", args: ["b", 1] }] },
    });
    assert.equal(
      failure(scoped).type,
      "TxFailure",
      "a signature scoped to PAY does not open accounts",
    );
  });

  it("starts a defpact, reports its state, and continues it with a cont payload", () => {
    const db = openMemoryPactDb();
    deployBank(db);
    const started = run(db, "(bank.two-steps 4)");
    assert.deepEqual(data(started), { int: 5 });
    assert.equal(
      started.continuation,
      `{"executed":null,"pactId":"${started.reqKey}","stepHasRollback":false,"step":0,"yield":null,"continuation":{"args":[{"int":4}],"def":"bank.two-steps"},"stepCount":2}`,
    );
    const cont = (step: number, nonce: string) => ({
      payload: { cont: { pactId: started.reqKey, step, rollback: false, data: null, proof: null } },
      nonce,
    });
    const second = run(db, "", { spec: cont(1, "step 1") });
    assert.deepEqual(data(second), { int: 40 });
    assert.equal(
      second.continuation,
      `{"executed":null,"pactId":"${started.reqKey}","stepHasRollback":false,"step":1,"yield":null,"continuation":{"args":[{"int":4}],"def":"bank.two-steps"},"stepCount":2}`,
    );
    assert.equal(failure(run(db, "", { spec: cont(1, "again") })).type, "EvalError");
  });

  it("fails a cross-chain continuation when no proof verifier is given", () => {
    const db = openMemoryPactDb();
    const payload = {
      cont: { pactId: "A".repeat(43), step: 1, rollback: false, data: null, proof: "cHJvb2Y" },
    };
    assert.deepEqual(failure(run(db, "", { spec: { payload } })), {
      type: "EvalError",
      message: "Continuation error: Cross-chain continuations not supported",
      info: "<toplevel>:0",
    });
  });
});

describe("the bounds of every command", () => {
  const db = openMemoryPactDb();

  it("stops unbounded work under free gas at the work limit", () => {
    // This thread's CPU time, not the wall clock: a loaded machine gives the run less of a core.
    const started = threadCpuMs();
    const outcome = run(db, "(fold (lambda (a x) (+ a (* x x))) 0 (enumerate 1 3000000))");
    assert.deepEqual(failure(outcome), {
      type: "EvalError",
      message:
        "Command exceeded the work limit of 1000000 gas (gas is free here, but work is bounded): used 1000001",
      info: "<toplevel>:0",
    });
    assert.equal(outcome.gas, 0);
    assert.ok(threadCpuMs() - started < 5000);
  });

  it("stops a command building more than the value limit before it allocates", () => {
    assert.deepEqual(
      failure(run(db, "(length (map (lambda (i) (enumerate 0 1000)) (enumerate 0 150000)))")),
      {
        type: "EvalError",
        message:
          "Command exceeded the limit of 33554432 bytes on the lists and strings it builds: 33560336 bytes",
        info: "<toplevel>:0",
      },
    );
    assert.match(
      failure(run(db, '(fold (lambda (a x) (+ a a)) "ab" (enumerate 1 40))')).message,
      /^Command exceeded the /,
    );
    assert.match(failure(run(db, "(make-list 100000000 1)")).message, /: 1200000000 bytes$/);
  });

  it("cannot be caught with try", () => {
    assert.match(
      failure(run(db, '(try 1 (length (make-list 10000000 "abcdefgh")))')).message,
      /^Command exceeded the limit of 33554432 bytes/,
    );
  });

  it("honours the command's own gas limit when asked to, free gas or metered", () => {
    // command() sets meta.gasLimit 1500.
    const loop = "(fold (lambda (a x) (+ a x)) 0 (enumerate 1 100000))";
    const free = run(db, loop, { gas: FREE_GAS_WITH_COMMAND_LIMIT });
    assert.equal(failure(free).message, 'Gas limit "1500" exceeded: 10801');
    assert.equal(free.gas, 0);
    const metered = run(db, loop, { gas: { kind: "metered", limit: "command", perAction: null } });
    assert.equal(failure(metered).message, 'Gas limit "1500" exceeded: 10801');
    assert.equal(metered.gas, 10801);
    assert.deepEqual(data(run(db, "(+ 1 2)", { gas: FREE_GAS_WITH_COMMAND_LIMIT })), { int: 3 });
  });
});

describe("onChainError", () => {
  it("words the JavaScript engine's limits as Pact-style messages, not the engine's text", () => {
    assert.deepEqual(onChainError(new RangeError("Invalid string length")), {
      type: "EvalError",
      message: "Resource limit exceeded: the command built a value too large for the interpreter",
      info: "<toplevel>:0",
    });
    assert.equal(
      onChainError(new RangeError("Maximum call stack size exceeded")).message,
      "Resource limit exceeded: the command nested calls too deeply for the interpreter",
    );
    assert.equal(
      onChainError(new TypeError("x is undefined")).message,
      "Unknown exception: x is undefined",
    );
  });
});
