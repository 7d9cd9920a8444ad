/**
 * End to end: `braid node` runs commands under chainweb-node's rules (issue #22), driven over HTTP
 * with `@kadena/client`. Each case is a command with its exact outcome: refused where Chainweb
 * refuses (with Chainweb's words), accepted where it accepts — keysets and modules only inside a
 * namespace, the `ns` registry's policy, local-only natives, no runtime return-type checks, gas
 * stations, table reads in `local`, an optional `networkId`. One in-memory node (on-demand
 * mining) serves the file; the tests run in order.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  createSignWithKeypair,
  type ICommand,
  type ICommandResult,
  type IUnsignedCommand,
  Pact,
} from "@kadena/client";
import { encodeHex, generateKeyPair } from "../../src/crypto/index.ts";
import type { DevKeyPair } from "../../src/node/genesis/accounts.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { clientFor, endpoint, NETWORK, postJson, SENDER00 } from "./support/kadena.ts";

let node: NodeProcess;
before(async () => {
  node = await startNode();
});
after(async () => {
  await node?.stop();
});

/** A capability a signer signs for: its name and arguments as `@kadena/client` takes them. */
type Cap = readonly [string, ...unknown[]];

interface CommandOptions {
  readonly data?: Record<string, unknown>;
  /** Signers with the capabilities their signatures are scoped to (none: unscoped). */
  readonly signers?: readonly { readonly keys: DevKeyPair; readonly caps?: readonly Cap[] }[];
  readonly sender?: string;
  readonly gasLimit?: number;
  /** The network id; null leaves it out of the command. */
  readonly networkId?: string | null;
}

const GAS: Cap = ["coin.GAS"];
/** sender00 pays, signing for gas only. */
const PAID_BY_SENDER00 = { signers: [{ keys: SENDER00, caps: [GAS] }] } as const;

function unsigned(code: string, options: CommandOptions = {}): IUnsignedCommand {
  let builder = Pact.builder.execution(code);
  for (const [key, value] of Object.entries(options.data ?? {})) {
    builder = builder.addData(key, value as never);
  }
  for (const signer of options.signers ?? []) {
    const caps = signer.caps ?? [];
    builder =
      caps.length === 0
        ? builder.addSigner(signer.keys.publicKey)
        : builder.addSigner(signer.keys.publicKey, (signFor) =>
            caps.map(([name, ...args]) => (signFor as (...a: unknown[]) => never)(name, ...args)),
          );
  }
  builder = builder.setMeta({
    chainId: "0",
    senderAccount: options.sender ?? "sender00",
    gasLimit: options.gasLimit ?? 100_000,
  });
  if (options.networkId !== null) builder = builder.setNetworkId(options.networkId ?? NETWORK);
  return builder.createTransaction();
}

async function signed(code: string, options: CommandOptions = {}): Promise<ICommand> {
  const keys = (options.signers ?? []).map((s) => s.keys);
  if (keys.length === 0) return unsigned(code, options) as ICommand;
  return (await createSignWithKeypair([...keys])(unsigned(code, options))) as ICommand;
}

const client = () => clientFor(node.url, "pact");

/** Sends a command, waits for its block and returns its result. */
async function mined(code: string, options: CommandOptions = PAID_BY_SENDER00) {
  const command = await signed(code, options);
  return client().listen(await client().submitOne(command));
}

/** Runs a command with plain `local`. */
async function local(code: string, options: CommandOptions = {}) {
  return client().local(await signed(code, options), {
    preflight: false,
    signatureVerification: false,
  });
}

function successOf(result: ICommandResult): unknown {
  assert.equal(result.result.status, "success", JSON.stringify(result.result));
  return (result.result as { data: unknown }).data;
}

function failureOf(result: ICommandResult): string {
  assert.equal(result.result.status, "failure", JSON.stringify(result.result));
  return (result.result as { error: { message: string } }).error.message;
}

/** POSTs `cmds` to `send` and returns the 400's text. */
async function refusedSend(command: ICommand): Promise<string> {
  const response = await postJson(endpoint(node.url, "send"), { cmds: [command] });
  assert.equal(response.status, 400, response.text);
  assert.match(response.headers.get("content-type") ?? "", /^text\/plain/);
  return response.text;
}

function freshKeys(): DevKeyPair {
  const pair = generateKeyPair();
  return { publicKey: encodeHex(pair.publicKey), secretKey: encodeHex(pair.secretKey) };
}

const keysetOf = (keys: DevKeyPair) => ({ keys: [keys.publicKey], pred: "keys-all" });

describe("Braid refuses what Chainweb refuses", { timeout: 60_000 }, () => {
  test("a keyset defined outside a namespace; inside one it is written", async () => {
    const data = { ks: keysetOf(SENDER00) };
    const outside = await mined('(define-keyset "my-admin" (read-keyset "ks"))', {
      ...PAID_BY_SENDER00,
      data,
    });
    assert.equal(failureOf(outside), "Cannot define keyset outside of a namespace.");
    const inside = await mined(
      '(namespace "free") (define-keyset "free.braid-rules-admin" (read-keyset "ks"))',
      { ...PAID_BY_SENDER00, data },
    );
    assert.equal(successOf(inside), "Keyset write success");
  });

  test("a keyset with a key that is not a key", async () => {
    const data = { ks: { keys: ["creation-guard"], pred: "keys-all" } };
    const message =
      "Invalid keyset format. Check that keys have the right length and signature scheme.";
    assert.equal(
      failureOf(await mined('(read-keyset "ks")', { ...PAID_BY_SENDER00, data })),
      message,
    );
    assert.equal(failureOf(await local('(read-keyset "ks")', { data })), message);
  });

  test("a module or an interface installed in the root namespace", async () => {
    const message = "Namespace installation failed. Cannot install modules in the root namespace.";
    const module = await mined("(module braid-rules-root G (defcap G () true) (defun f () 1))");
    assert.equal(failureOf(module), message);
    const iface = await mined("(interface braid-rules-iface (defun f:integer ()))");
    assert.equal(failureOf(iface), message);
  });

  test("a namespace the ns registry does not know", async () => {
    const data = { ks: keysetOf(freshKeys()) };
    const result = await mined(
      '(define-namespace "braid-rules-unknown" (read-keyset "ks") (read-keyset "ks"))',
      { ...PAID_BY_SENDER00, data },
    );
    assert.equal(failureOf(result), "Inactive or unregistered namespace");
  });

  test("describe-module in a transaction; local may", async () => {
    assert.equal(
      failureOf(await mined('(describe-module "coin")')),
      "Operation only permitted in local execution mode: describe-module",
    );
    const described = successOf(await local('(at "name" (describe-module "coin"))'));
    assert.equal(described, "coin");
  });

  test("free cannot be taken over: its admin guard passes nobody", async () => {
    const thief = freshKeys();
    const result = await mined('(define-namespace "free" (read-keyset "ks") (read-keyset "ks"))', {
      signers: [{ keys: SENDER00, caps: [GAS] }, { keys: thief }],
      data: { ks: keysetOf(thief) },
    });
    assert.equal(failureOf(result), "Disabled");
    const admin = successOf(await local('(at "admin-guard" (describe-namespace "free"))'));
    assert.deepEqual(admin, { fun: "ns.failure", args: [] });
  });
});

describe("Braid accepts what Chainweb accepts", { timeout: 60_000 }, () => {
  test("a function returning another type than it declares (no runtime return check)", async () => {
    const deployed = await mined(
      '(namespace "free") (module braid-rules-rtc G (defcap G () true) (defun f:integer (s:string) s))',
    );
    assert.match(successOf(deployed) as string, /^Loaded module free\.braid-rules-rtc/);
    const called = await mined('(free.braid-rules-rtc.f "not an integer")');
    assert.equal(successOf(called), "not an integer");
  });

  test("local reads a module's table directly; a transaction may not", async () => {
    const deployed = await mined(
      [
        '(namespace "free")',
        "(module braid-rules-table G (defcap G () true)",
        "  (defschema thing n:integer) (deftable things:{thing})",
        '  (defun put (k:string n:integer) (write things k { "n": n })))',
        "(create-table things)",
        '(free.braid-rules-table.put "a" 1)',
      ].join("\n"),
    );
    assert.equal(successOf(deployed), "Write succeeded");
    assert.deepEqual(successOf(await local("(keys free.braid-rules-table.things)")), ["a"]);
    assert.deepEqual(successOf(await local('(read free.braid-rules-table.things "a")')), {
      n: { int: 1 },
    });
    assert.equal(
      failureOf(await mined("(keys free.braid-rules-table.things)")),
      "Module admin is necessary for operation but has not been acquired: free.braid-rules-table",
    );
    assert.equal(
      failureOf(await local('(write free.braid-rules-table.things "b" { "n": 2 })')),
      "Module admin is necessary for operation but has not been acquired: free.braid-rules-table",
    );
  });

  test("a namespace registered with sender00's signature, and a module deployed into it", async () => {
    const owner = freshKeys();
    const data = { ks: keysetOf(owner) };
    const registered = await mined(
      '(ns.write-registry "braid-rules-space" (read-keyset "ks") true)',
      {
        signers: [{ keys: SENDER00, caps: [GAS, ["ns.OPERATE"]] }],
        data,
      },
    );
    assert.equal(successOf(registered), "Register entry written");
    const defined = await mined(
      '(define-namespace "braid-rules-space" (read-keyset "ks") (read-keyset "ks"))',
      { ...PAID_BY_SENDER00, data },
    );
    assert.equal(successOf(defined), "Namespace defined: braid-rules-space");
    const deployed = await mined(
      '(namespace "braid-rules-space") (module m G (defcap G () true) (defun f () 42))',
      { signers: [{ keys: SENDER00, caps: [GAS] }, { keys: owner }] },
    );
    assert.match(successOf(deployed) as string, /^Loaded module braid-rules-space\.m/);
    assert.deepEqual(successOf(await local("(braid-rules-space.m.f)")), { int: 42 });
    const stranger = await mined(
      '(namespace "braid-rules-space") (module n G (defcap G () true) (defun f () 1))',
    );
    // Chainweb's on-chain text: its pieces joined by spaces, each key cut to 10 characters.
    assert.equal(
      failureOf(stranger),
      `Keyset failure ( keys-all ):  ${owner.publicKey.slice(0, 10)}...`,
    );
  });

  test("util is not defined at genesis: sender00 registers and defines it, as marmalade's devnet deployment does", async () => {
    assert.equal(
      failureOf(await local('(describe-namespace "util")')),
      "Namespace not found: util",
    );
    // marmalade's step: one command signed by sender00 unscoped (gas and the registry's
    // operator), util's user and admin guard both the keyset it reads.
    const data = { "ns-admin-keyset": keysetOf(SENDER00) };
    const defined = await mined(
      [
        '(ns.write-registry "util" (read-keyset "ns-admin-keyset") true)',
        '(define-namespace "util" (read-keyset "ns-admin-keyset") (read-keyset "ns-admin-keyset"))',
      ].join("\n"),
      { signers: [{ keys: SENDER00 }], data },
    );
    assert.equal(successOf(defined), "Namespace defined: util");
    const deployed = await mined(
      '(namespace "util") (module guards G (defcap G () true) (defun always () true))',
      { signers: [{ keys: SENDER00 }] },
    );
    assert.match(successOf(deployed) as string, /^Loaded module util\.guards, hash /);
    assert.equal(successOf(await local("(util.guards.always)")), true);
  });

  test("a principal namespace needs no registry entry", async () => {
    const owner = freshKeys();
    const data = { ks: keysetOf(owner) };
    const name = successOf(
      await local('(ns.create-principal-namespace (read-keyset "ks"))', { data }),
    );
    assert.match(name as string, /^n_[0-9a-f]{1,40}$/);
    const defined = await mined(
      `(define-namespace (ns.create-principal-namespace (read-keyset "ks")) (read-keyset "ks") (read-keyset "ks"))`,
      { ...PAID_BY_SENDER00, data },
    );
    assert.equal(successOf(defined), `Namespace defined: ${name}`);
  });

  test("a command without networkId: plain local runs it, send and preflight refuse it", async () => {
    const command = await signed("(+ 1 2)", { ...PAID_BY_SENDER00, networkId: null });
    assert.equal(JSON.parse(command.cmd).networkId, undefined);
    const ran = await postJson(endpoint(node.url, "local"), command);
    assert.equal(ran.status, 200, ran.text);
    assert.deepEqual(JSON.parse(ran.text).result, { status: "success", data: { int: 3 } });
    const preflight = await postJson(
      endpoint(node.url, "local", { query: "preflight=true" }),
      command,
    );
    assert.equal(preflight.status, 400);
    assert.equal(preflight.text, 'Metadata validation failed: ["Network id mismatch"]');
    assert.equal(
      await refusedSend(command),
      `One or more transactions were invalid: Transaction "${command.hash}" at index 0 failed with: Transaction metadata (chain id, chainweb version) conflicts with this endpoint`,
    );
  });
});

describe("gas stations", { timeout: 60_000 }, () => {
  const STATION = "braid-rules-station";
  const STATION_MODULE = `free.${STATION}`;
  const user = freshKeys();
  const payerCap = (limit: number): Cap => [
    `${STATION_MODULE}.GAS_PAYER`,
    "someone",
    { int: limit },
    { decimal: "0.00000001" },
  ];
  const stationBalance = async () =>
    Number(successOf(await local(`(coin.get-balance "${STATION}")`)));

  test("a station deployed into free and funded", async () => {
    const deployed = await mined(
      [
        '(namespace "free")',
        `(module ${STATION} G`,
        "  (implements gas-payer-v1)",
        "  (defcap G () true)",
        "  (defcap GAS_PAYER:bool (user:string limit:integer price:decimal)",
        '    (enforce (= "exec" (read-msg "tx-type")) "Only exec commands")',
        '    (enforce (= 1 (length (read-msg "exec-code"))) "One form only")',
        '    (enforce (<= limit 2000) "Gas limit too high")',
        "    (compose-capability (ALLOW_GAS)))",
        "  (defcap ALLOW_GAS () true)",
        "  (defun create-gas-payer-guard:guard () (create-user-guard (gas-payer-guard)))",
        "  (defun gas-payer-guard () (require-capability (coin.GAS)) (require-capability (ALLOW_GAS))))",
      ].join("\n"),
    );
    assert.match(successOf(deployed) as string, /^Loaded module free\.braid-rules-station/);
    const funded = await mined(
      `(coin.transfer-create "sender00" "${STATION}" (${STATION_MODULE}.create-gas-payer-guard) 10.0)`,
      {
        signers: [
          {
            keys: SENDER00,
            caps: [GAS, ["coin.TRANSFER", "sender00", STATION, { decimal: "10.0" }]],
          },
        ],
      },
    );
    assert.equal(successOf(funded), "Write succeeded");
    assert.equal(await stationBalance(), 10);
  });

  test("pays for the command of a key that has no coin account", async () => {
    const before = await stationBalance();
    const result = await mined("(+ 1 2)", {
      signers: [{ keys: user, caps: [payerCap(1000)] }],
      sender: STATION,
      gasLimit: 1000,
    });
    assert.deepEqual(successOf(result), { int: 3 });
    const after = await stationBalance();
    assert.ok(result.gas > 0);
    assert.equal(Math.round((before - after) * 1e8), result.gas);
    const userAccount = await local(`(coin.get-balance "k:${user.publicKey}")`);
    assert.match(failureOf(userAccount), /^No value found in table coin_coin-table/);
  });

  test("is refused when its guard says no, and two gas payers are refused", async () => {
    const twoForms = await signed("(+ 1 2) (+ 3 4)", {
      signers: [{ keys: user, caps: [payerCap(1000)] }],
      sender: STATION,
      gasLimit: 1000,
    });
    assert.equal(
      await refusedSend(twoForms),
      `One or more transactions were invalid: Transaction "${twoForms.hash}" at index 0 failed with: Attempt to buy gas failed with: "${twoForms.hash}" Failed to buy gas: One form only`,
    );
    const tooMuch = await signed("(+ 1 2)", {
      signers: [{ keys: user, caps: [payerCap(5000)] }],
      sender: STATION,
      gasLimit: 5000,
    });
    assert.match(await refusedSend(tooMuch), /Failed to buy gas: Gas limit too high$/);
    const preflight = await postJson(
      endpoint(node.url, "local", { query: "preflight=true" }),
      tooMuch,
    );
    assert.equal(preflight.status, 400);
    assert.match(preflight.headers.get("content-type") ?? "", /^text\/plain/);
    assert.equal(preflight.text, `"${tooMuch.hash}" Failed to buy gas: Gas limit too high`);
    const twoPayers = await signed("(+ 1 2)", {
      signers: [
        { keys: user, caps: [payerCap(1000)] },
        { keys: freshKeys(), caps: [payerCap(1000)] },
      ],
      sender: STATION,
      gasLimit: 1000,
    });
    assert.equal(
      await refusedSend(twoPayers),
      `One or more transactions were invalid: Transaction "${twoPayers.hash}" at index 0 failed with: Attempt to buy gas failed with: "${twoPayers.hash}" Failed to buy gas: Multiple gas payer capabilities`,
    );
  });

  test("without GAS_PAYER the station's account cannot be spent", async () => {
    const command = await signed("(+ 1 2)", {
      signers: [{ keys: user, caps: [GAS] }],
      sender: STATION,
      gasLimit: 1000,
    });
    assert.match(
      await refusedSend(command),
      /Failed to buy gas: The required capability has not been granted: free\.braid-rules-station\.ALLOW_GAS$/,
    );
  });
});
