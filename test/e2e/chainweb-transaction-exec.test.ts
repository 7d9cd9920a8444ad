/**
 * End to end: the commands of chainweb-node's Pact 5 `TransactionExecTest.hs` (and the
 * cross-chain case of `RemotePactTest.hs`) sent through the API to a node started from
 * chainweb-node's own `development` genesis (`--genesis`), with `NoMiner` as its miner, as those
 * tests have; each assertion is the value chainweb-node's test asserts for the same command.
 *
 * Those tests run on a test version whose chain 0 genesis funds sender00 … sender09 as
 * `development`'s does, and call `applyCmd` directly with an initial (size) gas of 1; through the
 * API the node charges a command's size as chainweb-node's `initialGasOf` does, so where a gas
 * figure is compared, it is the test's figure with its 1 replaced by that charge. The cases left
 * out, and why, are listed in docs/node.md ("TransactionExecTest on chainweb-node's genesis").
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type ICommandResult, Pact } from "@kadena/client";
import { missingDataSkip, SHARED_DIR } from "../../src/chain/test-support/skip-or-require.ts";
import { sizeGas } from "../../src/node/executor/block/gas-fees.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { clientFor, NETWORK, readCommand, SENDER00, SENDER01, signWith } from "./support/kadena.ts";

const FOLDER = join(SHARED_DIR, "reference", "chainweb-genesis");
const FILES = ["Development0Payload.json", "Development1to19Payload.json"];
/** The miner chainweb-node's tests run with (`noMiner`). */
const MINER = "NoMiner";
/** The `coin` module hash of chainweb-node's genesis, which the events carry. */
const COIN_HASH = "3iIBQdJnst44Z2ZgXoHPkAauybJ0h85l_en_SGHNibE";
/** The initial gas chainweb-node's tests pass to `applyCmd`. */
const TEST_INITIAL_GAS = 1;

type Cap = readonly [name: string, ...args: unknown[]];

interface Sent {
  readonly result: ICommandResult;
  /** chainweb-node's `initialGasOf` for the command: 0.01 gas a byte of its `cmd`, rounded up. */
  readonly initialGas: number;
}

/** The message of a failed command's error. */
function errorMessage(result: ICommandResult): string {
  assert.equal(result.result.status, "failure");
  return (result.result as { error: { message: string } }).error.message;
}

/** [module, name, params] of each event, with the module hash checked to be coin's. */
function coinEvents(events: ICommandResult["events"]): unknown[] {
  return (events ?? []).map((e) => {
    assert.equal(e.moduleHash, COIN_HASH, `${e.module.name}.${e.name}'s module hash`);
    return [e.module.name, e.name, e.params];
  });
}

describe("TransactionExecTest's commands on a node started from chainweb-node's genesis", {
  skip: missingDataSkip(FILES.map((file) => join(FOLDER, file))),
  timeout: 180_000,
}, () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNode({
      args: ["--genesis", FOLDER, "--miner-account", MINER, "--miner-keys", SENDER00.publicKey],
      startTimeoutMs: 60_000,
    });
  });
  after(async () => {
    await node?.stop();
  });

  /** Sends sender00's command (chainweb-node's `defaultCmd` unless told otherwise) and waits for its result. */
  async function send(
    code: string,
    options: {
      gasLimit?: number;
      gasPrice?: number;
      caps?: readonly Cap[];
      data?: Record<string, unknown>;
      chainId?: string;
    } = {},
  ): Promise<Sent> {
    let builder = Pact.builder.execution(code);
    for (const [key, value] of Object.entries(options.data ?? {}))
      builder = builder.addData(key, value as never);
    const caps = options.caps;
    const signed = await signWith(
      SENDER00,
      (caps === undefined
        ? builder.addSigner(SENDER00.publicKey)
        : builder.addSigner(SENDER00.publicKey, (withCap) =>
            caps.map(([name, ...args]) => withCap(name as never, ...(args as never[]))),
          )
      )
        .setMeta({
          chainId: (options.chainId ?? "0") as "0",
          senderAccount: SENDER00.name,
          gasLimit: options.gasLimit ?? 10_000,
          gasPrice: options.gasPrice ?? 0.0001,
          ttl: 300,
        })
        .setNetworkId(NETWORK)
        .createTransaction(),
    );
    const client = clientFor(node.url, "pact");
    const result = await client.listen(await client.submit(signed));
    return { result, initialGas: sizeGas(Buffer.byteLength(signed.cmd)) };
  }

  async function local(code: string): Promise<ICommandResult> {
    const client = clientFor(node.url, "pact");
    return client.local(readCommand(code), { preflight: false, signatureVerification: false });
  }

  // "applyCmd coin.transfer": 420.0 from sender00 to sender01 at a gas price of 0.1.
  it("a coin transfer: 227 gas less the test's initial 1 plus the size charge, its events", async () => {
    const { result, initialGas } = await send("(coin.transfer 'sender00 'sender01 420.0)", {
      gasLimit: 1_000,
      gasPrice: 0.1,
      caps: [["coin.GAS"], ["coin.TRANSFER", "sender00", "sender01", { decimal: "420.0" }]],
    });
    assert.deepEqual(result.result, { status: "success", data: "Write succeeded" });
    const gas = 227 - TEST_INITIAL_GAS + initialGas;
    assert.equal(result.gas, gas);
    // The fee, gas × 0.1 (22.7 in the test).
    assert.deepEqual(coinEvents(result.events), [
      ["coin", "TRANSFER", ["sender00", "sender01", 420]],
      ["coin", "TRANSFER", ["sender00", MINER, gas / 10]],
    ]);
    assert.equal(result.continuation, null);
  });

  // "applyCmd failure spec": a type error at a gas price of 2 and a limit of 500: all of it paid.
  it("a failed transaction: the whole gas limit, paid to the miner", async () => {
    const { result } = await send('(+ 1 "abc")', { gasLimit: 500, gasPrice: 2 });
    assert.equal(result.result.status, "failure");
    assert.equal(result.gas, 500);
    assert.deepEqual(coinEvents(result.events), [["coin", "TRANSFER", ["sender00", MINER, 1000]]]);
    assert.equal(result.continuation, null);
    assert.equal(result.txId, null);
  });

  // "payload failure all gas should go to the miner - type error".
  it("a failed transaction (a type error): 1,000 gas, 2,000 KDA to the miner", async () => {
    const { result } = await send('(+ 1 "hello")', { gasLimit: 1_000, gasPrice: 2 });
    assert.equal(result.result.status, "failure");
    assert.equal(result.gas, 1_000);
    assert.deepEqual(coinEvents(result.events), [["coin", "TRANSFER", ["sender00", MINER, 2000]]]);
  });

  // "payload failure all gas should go to the miner - insufficient funds": a transfer of one
  // more than sender00 holds.
  it("a failed transfer (insufficient funds): the error, 1,000 gas, 2,000 KDA to the miner", async () => {
    const balance = await local("(coin.get-balance 'sender00)");
    assert.equal(balance.result.status, "success");
    // A balance with decimals comes as {decimal}; the test's amount is its integer part plus one.
    const data = balance.result.data as number | { decimal: string };
    const held = typeof data === "number" ? String(data) : data.decimal;
    const amount = `${BigInt(held.split(".")[0]!) + 1n}.0`;
    const { result } = await send(`(coin.transfer "sender00" "sender01" ${amount} )`, {
      gasLimit: 1_000,
      gasPrice: 2,
      caps: [["coin.GAS"], ["coin.TRANSFER", "sender00", "sender01", { decimal: "1000000000.0" }]],
    });
    assert.equal(result.result.status, "failure");
    assert.equal(errorMessage(result), "Insufficient funds");
    assert.equal(result.gas, 1_000);
    assert.deepEqual(coinEvents(result.events), [["coin", "TRANSFER", ["sender00", MINER, 2000]]]);
  });

  // "applyCmd spec": a fold, a signer without capabilities (the same as coin.GAS), price 2.
  it("a command that succeeds: 73 gas less the test's initial 1 plus the size charge", async () => {
    const { result, initialGas } = await send("(fold + 0 [1 2 3 4 5])", {
      gasLimit: 500,
      gasPrice: 2,
    });
    assert.deepEqual(result.result, { status: "success", data: { int: 15 } });
    const gas = 73 - TEST_INITIAL_GAS + initialGas;
    assert.equal(result.gas, gas);
    assert.deepEqual(coinEvents(result.events), [
      ["coin", "TRANSFER", ["sender00", MINER, gas * 2]],
    ]);
    assert.equal(result.continuation, null);
  });

  // "applyCoinbase spec": the block's coinbase pays the miner with no gas. The test pays a reward
  // of 5 it passes itself; a block of `development` pays its reward for the height, 1.1522615.
  it("the coinbase: no gas, Write succeeded, one transfer from nobody to the miner", async () => {
    const { result } = await send("1");
    const block = (await (
      await fetch(`${node.url}/braid/api/block/${result.metaData?.blockHash}`)
    ).json()) as { coinbase: ICommandResult };
    assert.equal(block.coinbase.gas, 0);
    assert.deepEqual(block.coinbase.result, { status: "success", data: "Write succeeded" });
    assert.deepEqual(coinEvents(block.coinbase.events), [
      ["coin", "TRANSFER", ["", MINER, 1.1522615]],
    ]);
  });

  // "event spec": two transfers in one command, each event carrying coin's module hash.
  it("two transfers in one command: 383 gas less 1 plus the size charge, the events with coin's hash", async () => {
    const { result, initialGas } = await send(
      "(coin.transfer 'sender00 'sender01 420.0) (coin.transfer 'sender00 'sender01 69.0)",
      {
        gasLimit: 1_100,
        gasPrice: 2,
        caps: [["coin.GAS"], ["coin.TRANSFER", "sender00", "sender01", { decimal: "489.0" }]],
      },
    );
    // The test's fee event is 766: 383 gas at a price of 2.
    const gas = 383 - TEST_INITIAL_GAS + initialGas;
    assert.equal(result.gas, gas);
    assert.deepEqual(coinEvents(result.events), [
      ["coin", "TRANSFER", ["sender00", "sender01", 420]],
      ["coin", "TRANSFER", ["sender00", "sender01", 69]],
      ["coin", "TRANSFER", ["sender00", MINER, gas * 2]],
    ]);
  });

  // "test local only fails outside of local".
  it("describe-module: answered by local, refused in a block", async () => {
    assert.equal((await local('(describe-module "coin")')).result.status, "success");
    const { result } = await send('(describe-module "coin")');
    assert.equal(result.result.status, "failure");
  });

  // "test coin upgrade", its final value: the coin of chainweb-node's genesis is the upgraded one.
  it("coin's module hash", async () => {
    const result = await local("(at 'hash (describe-module 'coin))");
    assert.deepEqual(result.result, { status: "success", data: COIN_HASH });
  });

  // "test hash-keccak256".
  it("hash-keccak256 of a long string: its hash, 75 gas less 1 plus the size charge", async () => {
    const input =
      "T73FllCNJKKgAQ4UCYC4CfucbVXsdRJYkd2YXTdmW9gPm-tqUCB1iKvzzu6Md82KWtSKngqgdO04hzg2JJbS-yyHVDuzNJ6mSZfOPntCTqktEi9X27CFWoAwWEN_4Ir7DItecXm5BEu_TYGnFjsxOeMIiLU2sPlX7_macWL0ylqnVqSpgt-tvzHvJVCDxLXGwbmaEH19Ov_9uJFHwsxMmiZD9Hjl4tOTrqN7THy0tel9rc8WtrUKrg87VJ7OR3Rtts5vZ91EBs1OdVldUQPRP536eTcpJNMo-N0fy-taji6L9Mdt4I4_xGqgIfmJxJMpx6ysWmiFVte8vLKl1L5p0yhOnEDsSDjuhZISDOIKC2NeytqoT9VpBQn1T3fjWkF8WEZIvJg5uXTge_qwA46QKV0LE5AlMKgw0cK91T8fnJ-u1Dyk7tCo3XYbx-292iiih8YM1Cr1-cdY5cclAjHAmlglY2ia_GXit5p6K2ggBmd1LpEBdG8DGE4jmeTtiDXLjprpDilq8iCuI0JZ_gvQvMYPekpf8_cMXtTenIxRmhDpYvZzyCxek1F4aoo7_VcAMYV71Mh_T8ox7U1Q4U8hB9oCy1BYcAt06iQai0HXhGFljxsrkL_YSkwsnWVDhhqzxWRRdX3PubpgMzSI290C1gG0Gq4xfKdHTrbm3Q";
    const { result, initialGas } = await send(`(hash-keccak256 [${JSON.stringify(input)}])`);
    assert.deepEqual(result.result, {
      status: "success",
      data: "DqM-LjT1ckQGQCRMfx9fBGl86XE5vacqZVjYZjwCs4g",
    });
    assert.equal(result.gas, 75 - TEST_INITIAL_GAS + initialGas);
  });

  // "applyCmd verifier spec", its first command: the module whose capability needs a verifier
  // (the `allow` verifier itself is a test plugin `development` does not have).
  it("a module in free: its hash, 285 gas less 1 plus the size charge, the fee event", async () => {
    const { result, initialGas } = await send(
      "(namespace 'free)\n(module m G\n  (defcap G () (enforce-verifier 'allow))\n  (defun x () (with-capability (G) 1))\n)\n",
      { gasLimit: 70_000, gasPrice: 2 },
    );
    assert.deepEqual(result.result, {
      status: "success",
      data: "Loaded module free.m, hash Uj0lQPPu9CKvw13K4VP4DZoaPKOphk_-vuq823hLSLo",
    });
    const gas = 285 - TEST_INITIAL_GAS + initialGas;
    assert.equal(result.gas, gas);
    // The test's fee event is 570: 285 gas at a price of 2.
    assert.deepEqual(coinEvents(result.events), [
      ["coin", "TRANSFER", ["sender00", MINER, gas * 2]],
    ]);
  });

  // RemotePactTest's "crosschainTest": 1.0 from sender00 on chain 0 to sender01 on chain 9, the
  // continuation sent by sender00 (its default command) on the wrong chain, then on chain 9 twice.
  it("a cross-chain transfer: the receipt refused on the wrong chain, its events on chain 9, a second receipt refused", async () => {
    const { result: first } = await send(
      '(coin.transfer-crosschain "sender00" "sender01" (read-keyset \'k) "9" 1.0)',
      {
        caps: [
          ["coin.GAS"],
          ["coin.TRANSFER_XCHAIN", "sender00", "sender01", { decimal: "1.0" }, "9"],
        ],
        data: { k: { keys: [SENDER01.publicKey], pred: "keys-all" } },
      },
    );
    assert.equal(first.result.status, "success");
    const pactId = first.continuation?.pactId as string;
    const client = clientFor(node.url, "pact");
    const proof = (
      await client.pollCreateSpv(
        { requestKey: first.reqKey, chainId: "0", networkId: NETWORK },
        "9",
        {
          interval: 100,
          timeout: 30_000,
        },
      )
    ).replace(/"/g, "");
    const receive = async (chainId: "0" | "9", nonce: string) => {
      const signed = await signWith(
        SENDER00,
        Pact.builder
          .continuation({ pactId, proof, rollback: false, step: 1, data: {} })
          .addSigner(SENDER00.publicKey)
          .setMeta({
            chainId,
            senderAccount: SENDER00.name,
            gasLimit: 10_000,
            gasPrice: 0.0001,
            ttl: 300,
          })
          .setNetworkId(NETWORK)
          .setNonce(nonce)
          .createTransaction(),
      );
      return client.listen(await client.submit(signed));
    };
    const wrongChain = await receive("0", "receive on 0");
    assert.equal(
      errorMessage(wrongChain),
      "Continuation error: verifyCont: cannot redeem continuation proof on wrong targget chain",
    );
    const received = await receive("9", "receive on 9");
    assert.equal(received.result.status, "success");
    const events = (received.events ?? []).map((e) => [e.module.name, e.name, e.params]);
    assert.equal(events.length, 4);
    assert.deepEqual(events[1], ["coin", "TRANSFER_XCHAIN_RECD", ["", "sender01", 1, "0"]]);
    assert.deepEqual(events[2]?.slice(0, 2), ["pact", "X_RESUME"]);
    const again = await receive("9", "receive on 9 again");
    assert.equal(
      errorMessage(again),
      `Requested defpact execution already completed for defpact id: ${pactId.slice(0, 20)}...`,
    );
  });

  // "test writes to nonexistent tables": a table defined and written in the same command.
  it("a write to a table created in the same command fails", async () => {
    const { result } = await send(
      "(namespace 'free)(module n G(defcap G () true)(defschema o i:integer)(deftable t:{o}))(insert t 'k {'i: 2})",
    );
    assert.equal(result.result.status, "failure");
  });
});
