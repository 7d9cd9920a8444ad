/**
 * End to end: `braid node` as a separate process, driven over HTTP with `@kadena/client` on both
 * the `pact/api/v1` and the `contract/api/v1` paths. One in-memory node (on-demand mining) serves
 * every test of this file, which run in order: the transfer, then what reads it.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { ICommand, ICommandResult, ITransactionDescriptor } from "@kadena/client";
import { createSignWithKeypair, Pact } from "@kadena/client";
import { encodeHex, generateKeyPair } from "../../src/crypto/index.ts";
import { BRAID_VERSION } from "../../src/version.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { hinted, withoutNodeTime } from "../support/time-refusal.ts";
import {
  clientFor,
  endpoint,
  postJson,
  readCommand,
  SENDER00,
  SENDER01,
  signWith,
  transferCommand,
} from "./support/kadena.ts";

/** The default miner account (`braid node`'s banner). */
const MINER = "k:f89ef46927f506c70b6a58fd322450a936311dc6ac91f4ec3d8ef949608dbf1f";
/** Gas of a `coin.transfer` between existing accounts, as the node charges it. */
const TRANSFER_GAS = 231;

let node: NodeProcess;
let transfer: ICommand;
let transferred: ITransactionDescriptor;
let transferResult: ICommandResult;

before(async () => {
  node = await startNode();
});
after(async () => {
  await node?.stop();
});

async function balance(account: string, path: "pact" | "contract" = "pact") {
  const result = await clientFor(node.url, path).dirtyRead(
    readCommand(`(coin.get-balance ${JSON.stringify(account)})`),
  );
  assert.equal(result.result.status, "success", JSON.stringify(result.result));
  return (result.result as { data: unknown }).data;
}

describe("a transfer sender00 → sender01", { timeout: 30_000 }, () => {
  test("is sent on contract/api/v1, listened for, and polled with confirmationDepth 2", async () => {
    const client = clientFor(node.url, "contract", 2);
    transfer = await signWith(SENDER00, transferCommand(SENDER00, SENDER01.name, "1.0"));
    transferred = await client.submitOne(transfer);
    assert.deepEqual(transferred, {
      requestKey: transfer.hash,
      chainId: "0",
      networkId: "development",
    });
    const listened = await client.listen(transferred);
    assert.equal(listened.reqKey, transfer.hash);
    assert.deepEqual(listened.result, { status: "success", data: "Write succeeded" });
    assert.equal(listened.gas, TRANSFER_GAS);
    const polled = await client.pollOne(transferred, { timeout: 10_000, interval: 100 });
    assert.deepEqual(polled, listened);
    transferResult = polled;
    const events = polled.events?.map((e) => `${e.module.name}.${e.name}`);
    assert.deepEqual(events, ["coin.TRANSFER", "coin.TRANSFER"]);
    // The transfer, then the gas fee paid to the miner.
    assert.deepEqual(polled.events?.[0]?.params, ["sender00", "sender01", 1]);
    assert.deepEqual(polled.events?.[1]?.params, ["sender00", MINER, 0.00000231]);
  });

  test("poll with confirmationDepth 2 answers on pact/api/v1 too, with the same body", async () => {
    const body = { requestKeys: [transfer.hash] };
    const query = "confirmationDepth=2";
    const viaPact = await postJson(endpoint(node.url, "poll", { path: "pact", query }), body);
    const viaContract = await postJson(
      endpoint(node.url, "poll", { path: "contract", query }),
      body,
    );
    assert.equal(viaPact.status, 200, viaPact.text);
    assert.equal(viaContract.text, viaPact.text);
    const found = JSON.parse(viaPact.text) as Record<string, ICommandResult>;
    assert.deepEqual(Object.keys(found), [transfer.hash]);
    assert.equal(found[transfer.hash]!.result.status, "success");
  });

  test("balances through local on both paths", async () => {
    assert.deepEqual(await balance("sender00", "contract"), { decimal: "99999998.999997690000" });
    assert.deepEqual(await balance("sender01", "pact"), 110000001);
  });

  test("rewindDepth sees the old balance", async () => {
    const client = clientFor(node.url, "pact");
    const txHeight = transferResult.metaData!.blockHeight as number;
    const now = await client.local(readCommand('(coin.get-balance "sender01")'), {
      preflight: false,
      signatureVerification: false,
    });
    const headHeight = (now.metaData!.blockHeight as number) - 1;
    assert.ok(headHeight >= txHeight + 2, `head ${headHeight}, transfer at ${txHeight}`);
    const rewound = async (depth: number) => {
      const r = await postJson(
        endpoint(node.url, "local", { query: `rewindDepth=${depth}` }),
        readCommand('(coin.get-balance "sender01")'),
      );
      assert.equal(r.status, 200, r.text);
      return JSON.parse(r.text) as ICommandResult;
    };
    const atTransfer = await rewound(headHeight - txHeight);
    assert.deepEqual(atTransfer.result, { status: "success", data: 110000001 });
    const before = await rewound(headHeight - txHeight + 1);
    assert.deepEqual(before.result, { status: "success", data: 110000000 });
    assert.equal(before.metaData!.blockHeight, txHeight);
  });

  test("preflight reports the gas the transfer costs", async () => {
    const client = clientFor(node.url, "contract");
    const command = await signWith(SENDER00, transferCommand(SENDER00, SENDER01.name, "2.5"));
    const preflight = await client.preflight(command);
    assert.deepEqual(preflight.result, { status: "success", data: "Write succeeded" });
    assert.equal(preflight.gas, TRANSFER_GAS);
    assert.deepEqual(preflight.preflightWarnings, []);
    // Nothing was written.
    assert.deepEqual(await balance("sender01"), 110000001);
  });

  test("preflight of a failing transfer charges the whole gas limit, as a block would", async () => {
    const client = clientFor(node.url, "pact");
    const command = await signWith(
      SENDER00,
      transferCommand(SENDER00, SENDER01.name, "200000000.0", { gasLimit: 3000 }),
    );
    const preflight = await client.preflight(command);
    assert.equal(preflight.result.status, "failure");
    assert.equal((preflight.result.error as { message?: string }).message, "Insufficient funds");
    assert.equal(preflight.gas, 3000);
    assert.deepEqual(preflight.events?.[0]?.params, ["sender00", MINER, 0.00003]);
  });

  test("signatureVerification=false runs an unsigned command; with it, the command is refused", async () => {
    const client = clientFor(node.url, "pact");
    const unsigned = transferCommand(SENDER00, SENDER01.name, "3.0");
    const result = await client.local(unsigned, {
      preflight: false,
      signatureVerification: false,
    });
    assert.deepEqual(result.result, { status: "success", data: "Write succeeded" });
    const refused = await postJson(endpoint(node.url, "local"), unsigned);
    assert.equal(refused.status, 400);
    assert.match(refused.text, /^Validation failed: /);
  });
});

describe("a module in the free namespace", { timeout: 30_000 }, () => {
  const code =
    '(namespace "free") (module greeter GOV (defcap GOV () true) (defun greet:string (name:string) (format "Hello, {}!" [name])))';

  test("is deployed with send on pact/api/v1 and called through local and send", async () => {
    const client = clientFor(node.url, "pact");
    const deploy = await signWith(
      SENDER00,
      Pact.builder
        .execution(code)
        .addSigner(SENDER00.publicKey, (signFor) => [signFor("coin.GAS")])
        .setMeta({ chainId: "0", senderAccount: "sender00", gasLimit: 10_000 })
        .setNetworkId("development")
        .createTransaction(),
    );
    const deployed = await client.listen(await client.submitOne(deploy));
    assert.deepEqual(deployed.result, {
      status: "success",
      data: "Loaded module free.greeter, hash SALj1OkE2iAQmgNhgZgXmhlsD0asJSOFYDBP8XtWCcw",
    });
    const read = await client.dirtyRead(readCommand('(free.greeter.greet "Braid")'));
    assert.deepEqual(read.result, { status: "success", data: "Hello, Braid!" });
    const call = await signWith(
      SENDER01,
      Pact.builder
        .execution('(free.greeter.greet "chain")')
        .addSigner(SENDER01.publicKey, (signFor) => [signFor("coin.GAS")])
        .setMeta({ chainId: "0", senderAccount: "sender01" })
        .setNetworkId("development")
        .createTransaction(),
    );
    const called = await client.listen(await client.submitOne(call));
    assert.deepEqual(called.result, { status: "success", data: "Hello, chain!" });
  });
});

describe("send refuses, each with Chainweb's message", { timeout: 30_000 }, () => {
  const now = () => Math.floor(Date.now() / 1000);

  /** Sends one signed command on the given path and returns the 400's text. */
  async function refusal(command: ICommand, path: "pact" | "contract" = "pact") {
    const response = await postJson(endpoint(node.url, "send", { path }), { cmds: [command] });
    assert.equal(response.status, 400, response.text);
    assert.match(response.headers.get("content-type") ?? "", /^text\/plain/);
    return response.text;
  }
  const invalid = (command: ICommand, reason: string) =>
    `One or more transactions were invalid: Transaction "${command.hash}" at index 0 failed with: ${reason}`;
  const signedTransfer = (meta: Parameters<typeof transferCommand>[3], networkId?: string) =>
    signWith(SENDER00, transferCommand(SENDER00, SENDER01.name, "1.0", meta, networkId));

  test("a gas limit over the block gas limit", async () => {
    const command = await signedTransfer({ gasLimit: 150_001 });
    assert.equal(
      await refusal(command),
      invalid(command, "Transaction gas limit exceeds block gas limit (150001)"),
    );
  });

  test("a gas price with more than 12 decimal places", async () => {
    const command = await signedTransfer({ gasPrice: 1.0000000000001 });
    assert.equal(
      await refusal(command, "contract"),
      invalid(
        command,
        "insert error: This transaction's gas price: 1.0000000000001 is not correctly rounded. It should be rounded to at most 12 decimal places.",
      ),
    );
  });

  test("a gas price under the minimum", async () => {
    const command = await signedTransfer({ gasPrice: 0.000000001 });
    assert.equal(
      await refusal(command),
      invalid(
        command,
        "Transaction gas price (0.000000001) is below minimum gas price (0.00000001)",
      ),
    );
  });

  test("a creation time in the future", async () => {
    const created = now() + 3600;
    const command = await signedTransfer({ creationTime: created, ttl: 600 });
    assert.equal(
      withoutNodeTime(await refusal(command)),
      hinted(
        invalid(command, "Transaction creation time too far in the future"),
        created,
        600,
        "NOW",
      ),
    );
  });

  test("an expired time to live", async () => {
    const created = now() - 7200;
    const command = await signedTransfer({ creationTime: created, ttl: 600 });
    assert.equal(
      withoutNodeTime(await refusal(command)),
      hinted(invalid(command, "Transaction time-to-live is expired"), created, 600, "NOW"),
    );
  });

  test("a command already on the chain", async () => {
    assert.equal(await refusal(transfer), invalid(transfer, "Transaction already exists on chain"));
  });

  test("another chain's command", async () => {
    const command = await signedTransfer({ chainId: "1" });
    assert.equal(
      await refusal(command),
      invalid(
        command,
        "Transaction metadata (chain id, chainweb version) conflicts with this endpoint",
      ),
    );
  });

  test("another network's command", async () => {
    const command = await signedTransfer({}, "mainnet01");
    assert.equal(
      await refusal(command),
      invalid(
        command,
        "Transaction metadata (chain id, chainweb version) conflicts with this endpoint",
      ),
    );
  });

  test("an unparsable chain id", async () => {
    const command = await signedTransfer({ chainId: "x" });
    assert.equal(await refusal(command), invalid(command, "insert error: Unparsable ChainId"));
  });

  test("more than 100 signatures", async () => {
    const keys = Array.from({ length: 101 }, () => {
      const pair = generateKeyPair();
      return { publicKey: encodeHex(pair.publicKey), secretKey: encodeHex(pair.secretKey) };
    });
    let builder = Pact.builder
      .execution("(+ 1 2)")
      .setMeta({ chainId: "0", senderAccount: "sender00" })
      .setNetworkId("development");
    for (const key of keys) builder = builder.addSigner(key.publicKey);
    const command = (await createSignWithKeypair(keys)(builder.createTransaction())) as ICommand;
    assert.equal(command.sigs.length, 101);
    assert.equal(await refusal(command), invalid(command, "insert error: Too many signatures"));
  });

  test("a sender that cannot buy its gas", async () => {
    const unknown = await signedTransfer({ senderAccount: "nobody" });
    assert.equal(
      await refusal(unknown),
      invalid(
        unknown,
        `Attempt to buy gas failed with: "${unknown.hash}" Failed to buy gas: No value found in table coin_coin-table for key: nobody`,
      ),
    );
    const tooPoor = await signedTransfer({ gasLimit: 150_000, gasPrice: 1000 });
    assert.equal(
      await refusal(tooPoor),
      invalid(
        tooPoor,
        `Attempt to buy gas failed with: "${tooPoor.hash}" Failed to buy gas: Insufficient funds`,
      ),
    );
  });

  test("a bad signature", async () => {
    const signed = await signedTransfer({});
    const sig = signed.sigs[0]!.sig!;
    const command = { ...signed, sigs: [{ sig: `${sig[0] === "0" ? "1" : "0"}${sig.slice(1)}` }] };
    assert.equal(
      await refusal(command),
      invalid(command, `sigs[0]: invalid signature for signer 0 (${SENDER00.publicKey})`),
    );
  });

  test("a bad signature on a command that also cannot buy its gas: the signature is named", async () => {
    // Its gas is bought while the signature is verified; the signature's refusal still comes first.
    const signed = await signedTransfer({ senderAccount: "nobody" });
    const sig = signed.sigs[0]!.sig!;
    const command = { ...signed, sigs: [{ sig: `${sig[0] === "0" ? "1" : "0"}${sig.slice(1)}` }] };
    assert.equal(
      await refusal(command),
      invalid(command, `sigs[0]: invalid signature for signer 0 (${SENDER00.publicKey})`),
    );
  });
});

describe("the common response headers", { timeout: 30_000 }, () => {
  function assertCommonHeaders(response: { headers: Headers }) {
    const { headers } = response;
    assert.match(headers.get("x-peer-addr") ?? "", /^127\.0\.0\.1:[0-9]+$/);
    const timestamp = Number(headers.get("x-server-timestamp"));
    assert.ok(Math.abs(timestamp - Date.now() / 1000) < 60, `x-server-timestamp ${timestamp}`);
    assert.equal(headers.get("x-chainweb-node-version"), BRAID_VERSION);
    assert.equal(headers.get("x-service-node-version"), BRAID_VERSION);
  }

  test("are on a success", async () => {
    const response = await postJson(endpoint(node.url, "poll", { path: "contract" }), {
      requestKeys: [transfer.hash],
    });
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    assertCommonHeaders(response);
  });

  test("are on a 400", async () => {
    const response = await postJson(
      endpoint(node.url, "local", { query: "preflight=maybe" }),
      readCommand("(+ 1 2)"),
    );
    assert.equal(response.status, 400);
    assert.equal(response.text, "the query parameter preflight must be true or false");
    assertCommonHeaders(response);
  });

  test("are on a 404 (an unknown chain, an unknown network)", async () => {
    const chain = await postJson(endpoint(node.url, "poll", { chain: "20" }), {
      requestKeys: [transfer.hash],
    });
    assert.equal(chain.status, 404);
    assert.equal(chain.text, 'no such chain: "20"; the chains are 0 to 19');
    assertCommonHeaders(chain);
    const network = await postJson(endpoint(node.url, "send", { network: "mainnet01" }), {
      cmds: [transfer],
    });
    assert.equal(network.status, 404);
    assert.equal(network.text, 'no such network: "mainnet01"; this node runs development');
    assertCommonHeaders(network);
    const route = await postJson(
      `${node.url}/chainweb/0.0/development/chain/0/pact/api/v1/nope`,
      {},
    );
    assert.equal(route.status, 404);
    assertCommonHeaders(route);
  });
});
