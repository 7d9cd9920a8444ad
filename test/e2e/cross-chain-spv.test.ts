/**
 * End to end against `braid node` in a child process (issue #12 item 3): a cross-chain transfer
 * from chain 0 to chain 1 with `@kadena/client` (`transfer-crosschain`, `pollCreateSpv`, the
 * continuation on chain 1 paid by sender01 with `coin.GAS`), the same proof on both SPV paths,
 * each SPV error once, and the proof and balances kept across a restart.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  createClient,
  createSignWithKeypair,
  type ICommand,
  type IUnsignedCommand,
  Pact,
} from "@kadena/client";
import { encodeHex, keyPairFromSeed } from "../../src/crypto/index.ts";
import { DEV_ACCOUNTS } from "../../src/node/genesis/accounts.ts";

const MAIN = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const TSX = import.meta.resolve("tsx");
const NETWORK = "development";
const sender00 = DEV_ACCOUNTS[0]!;
const sender01 = DEV_ACCOUNTS[1]!;
const receiverKey = encodeHex(keyPairFromSeed(new Uint8Array(32).fill(42)).publicKey);
const RECEIVER = `k:${receiverKey}`;

interface RunningNode {
  readonly url: string;
  readonly child: ChildProcess;
}

async function startNode(args: readonly string[]): Promise<RunningNode> {
  const child = spawn(
    process.execPath,
    ["--import", TSX, MAIN, "node", "--port", "0", "--listen-timeout", "20", ...args],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /URL +(http:\/\/\S+)/.exec(out);
      if (match !== null) resolve(match[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`braid node exited with ${code}: ${out}`)));
  });
  return { url, child };
}

async function stopNode(node: RunningNode | undefined): Promise<void> {
  if (node === undefined || node.child.exitCode !== null) return;
  const exited = new Promise((resolve) => node.child.once("exit", resolve));
  node.child.kill("SIGTERM");
  await exited;
}

const chainBase = (node: RunningNode, chain: string) =>
  `${node.url}/chainweb/0.0/${NETWORK}/chain/${chain}`;

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

function clientOf(node: RunningNode) {
  return createClient(
    ({ chainId, networkId }) => `${node.url}/chainweb/0.0/${networkId}/chain/${chainId}/pact`,
  );
}

async function balance(node: RunningNode, chain: string, account: string): Promise<unknown> {
  const command = Pact.builder
    .execution(`(coin.get-balance ${JSON.stringify(account)})`)
    .setMeta({ chainId: chain as "1", senderAccount: sender00.name })
    .setNetworkId(NETWORK)
    .setNonce(`balance-${Date.now()}-${Math.random()}`)
    .createTransaction();
  const result = await clientOf(node).local(command, {
    preflight: false,
    signatureVerification: false,
  });
  return result.result.status === "success" ? result.result.data : result.result;
}

describe("cross-chain transfers through braid node", () => {
  let dir: string;
  let node: RunningNode | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "braid-spv-"));
  });
  after(async () => {
    await stopNode(node);
    rmSync(dir, { recursive: true, force: true });
  });

  let transferKey = "";
  let contKey = "";
  let proof = "";

  it("moves 2.5 KDA from chain 0 to chain 1 with @kadena/client and pollCreateSpv", async () => {
    node = await startNode(["--data-dir", dir]);
    const client = clientOf(node);
    const signSender00 = createSignWithKeypair({
      publicKey: sender00.publicKey,
      secretKey: sender00.secretKey,
    });
    const transfer: IUnsignedCommand = Pact.builder
      .execution(
        `(coin.transfer-crosschain "sender00" ${JSON.stringify(RECEIVER)} (read-keyset "ks") "1" 2.5)`,
      )
      .addData("ks", { keys: [receiverKey], pred: "keys-all" })
      .addSigner(sender00.publicKey, (withCap) => [
        withCap("coin.GAS"),
        withCap("coin.TRANSFER_XCHAIN", "sender00", RECEIVER, { decimal: "2.5" }, "1"),
      ])
      .setMeta({ chainId: "0", senderAccount: "sender00", gasLimit: 10_000 })
      .setNetworkId(NETWORK)
      .setNonce("xchain-1")
      .createTransaction();
    const sent = await client.submit((await signSender00(transfer)) as ICommand);
    transferKey = sent.requestKey;
    const first = await client.listen(sent);
    assert.equal(first.result.status, "success", JSON.stringify(first.result));
    const pactId = first.continuation?.pactId;
    assert.equal(pactId, transferKey);

    proof = await client.pollCreateSpv(sent, "1", { interval: 100, timeout: 20_000 });
    assert.match(proof, /^"?[A-Za-z0-9_-]+"?$/);
    proof = proof.replace(/"/g, "");
    const decoded = JSON.parse(Buffer.from(proof, "base64url").toString("utf8"));
    assert.equal(decoded.chain, 1);
    assert.equal(decoded.algorithm, "SHA512t_256");

    const signSender01 = createSignWithKeypair({
      publicKey: sender01.publicKey,
      secretKey: sender01.secretKey,
    });
    const cont = Pact.builder
      .continuation({ pactId: pactId as string, proof, rollback: false, step: 1, data: {} })
      .addSigner(sender01.publicKey, (withCap) => [withCap("coin.GAS")])
      .setMeta({ chainId: "1", senderAccount: "sender01", gasLimit: 10_000 })
      .setNetworkId(NETWORK)
      .setNonce("xchain-1-cont")
      .createTransaction();
    const contSent = await client.submit((await signSender01(cont)) as ICommand);
    contKey = contSent.requestKey;
    const second = await client.listen(contSent);
    assert.equal(second.result.status, "success", JSON.stringify(second.result));
    assert.deepEqual(
      (second.events ?? []).map((e) => `${e.module.name}.${e.name}`),
      ["coin.TRANSFER", "coin.TRANSFER_XCHAIN_RECD", "pact.X_RESUME", "coin.TRANSFER"],
    );
    assert.equal(await balance(node, "1", RECEIVER), 2.5);

    // The same proof again is a finished defpact.
    const again = Pact.builder
      .continuation({ pactId: pactId as string, proof, rollback: false, step: 1, data: {} })
      .addSigner(sender01.publicKey, (withCap) => [withCap("coin.GAS")])
      .setMeta({ chainId: "1", senderAccount: "sender01", gasLimit: 10_000 })
      .setNetworkId(NETWORK)
      .setNonce("xchain-1-cont-again")
      .createTransaction();
    const twice = await client.listen(await client.submit((await signSender01(again)) as ICommand));
    assert.equal(twice.result.status, "failure");
    assert.match(JSON.stringify(twice.result), /already completed/);
  });

  it("serves the same proof as a bare string on /pact/spv and as {spv} on /contract/api/v1/spv", async () => {
    const body = { requestKey: transferKey, targetChainId: "1" };
    const a = await post(`${chainBase(node!, "0")}/pact/spv`, body);
    const b = await post(`${chainBase(node!, "0")}/contract/api/v1/spv`, body);
    assert.equal(a.status, 200, a.text);
    assert.equal(b.status, 200, b.text);
    assert.equal(a.text, JSON.stringify(proof));
    assert.equal(b.text, JSON.stringify({ spv: proof }));
  });

  it("refuses a proof on the wrong chain in a cont (local)", async () => {
    // chain 2 is not the proof's target chain.
    const cont = Pact.builder
      .continuation({ pactId: transferKey, proof, rollback: false, step: 1, data: {} })
      .setMeta({ chainId: "2", senderAccount: "sender01" })
      .setNetworkId(NETWORK)
      .setNonce("wrong-chain")
      .createTransaction();
    const result = await clientOf(node!).local(cont, {
      preflight: false,
      signatureVerification: false,
    });
    assert.equal(result.result.status, "failure");
    // Chainweb's RemotePactTest expects exactly this text (its typo included).
    assert.equal(
      (result.result as { error: { message: string } }).error.message,
      "Continuation error: verifyCont: cannot redeem continuation proof on wrong targget chain",
    );
  });

  it("answers each SPV error with a 400 and a reason", async () => {
    const spv = (chain: string, body: unknown) => post(`${chainBase(node!, chain)}/pact/spv`, body);
    const unknown = await spv("0", { requestKey: "A".repeat(43), targetChainId: "1" });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.text, `Transaction hash not found: "${"A".repeat(43)}"`);
    const badChain = await spv("0", { requestKey: transferKey, targetChainId: "20" });
    assert.equal(badChain.status, 400);
    assert.match(badChain.text, /"targetChainId" must be a chain id/);
    const numberChain = await spv("0", { requestKey: transferKey, targetChainId: 1 });
    assert.equal(numberChain.status, 400);
    const short = await spv("0", { requestKey: "AAAA", targetChainId: "1" });
    assert.equal(short.status, 400);
    assert.equal(short.text, "Request Key AAAA has incorrect hash of length 3");
    const missing = await spv("0", { targetChainId: "1" });
    assert.equal(missing.status, 400);
    const noChain = await post(`${chainBase(node!, "20")}/pact/spv`, {
      requestKey: transferKey,
      targetChainId: "1",
    });
    assert.equal(noChain.status, 404);
  });

  it("keeps the proof and the balances across a restart; a young target chain is not reachable", async () => {
    await stopNode(node);
    node = await startNode([
      "--data-dir",
      dir,
      "--mining",
      "interval",
      "--mining-interval",
      "3600",
    ]);
    const again = await post(`${chainBase(node, "0")}/contract/api/v1/spv`, {
      requestKey: transferKey,
      targetChainId: "1",
    });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.text, JSON.stringify({ spv: proof }));
    assert.equal(await balance(node, "1", RECEIVER), 2.5);
    // The continuation's block is the newest: chain 0 has no block high enough to witness it.
    const young = await post(`${chainBase(node, "1")}/pact/spv`, {
      requestKey: contKey,
      targetChainId: "0",
    });
    assert.equal(young.status, 400, young.text);
    assert.match(
      young.text,
      /^SPV target not reachable: target chain not reachable\. Chainweb instance is too young/,
    );
  });
});
