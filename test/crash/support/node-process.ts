/**
 * A `braid node` child process for the crash test: started with tsx on a data directory and a
 * free port, ready once its banner names the URL; stopped with SIGKILL (no clean shutdown) or
 * SIGTERM. Also small helpers to POST to its service and to sign coin transfers.
 * (Kept apart from test/e2e/support/node-process.ts on purpose: deduplicated later.)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { signCommand } from "../../../src/command/index.ts";
import type { CommandJson } from "../../../src/command/types.ts";
import { decodeHex, keyPairFromSeed } from "../../../src/crypto/index.ts";
import { DEV_ACCOUNTS } from "../../../src/node/genesis/accounts.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const MAIN = join(ROOT, "src", "cli", "main.ts");

export interface NodeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** The API base of a chain: `${url}/chainweb/0.0/development/chain/${c}/pact/api/v1`. */
  api(chainId: number): string;
  /** Resolves with the exit code or signal once the process has gone. */
  readonly exited: Promise<string>;
  /** Everything the process wrote to standard error so far. */
  stderr(): string;
}

/** Starts `braid node` on `dataDir` (port 0) and resolves once it serves requests. */
export async function startNode(
  dataDir: string,
  extraArgs: readonly string[] = [],
  timeoutMs = 30_000,
): Promise<NodeProcess> {
  const args = ["--import", "tsx", MAIN, "node", "--data-dir", dataDir, "--port", "0"];
  const child = spawn(process.execPath, [...args, ...extraArgs], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (d: string) => {
    err += d;
  });
  const exited = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) => resolve(signal ?? String(code)));
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the node did not start within ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    const onData = (d: string) => {
      out += d;
      const found = /URL\s+(http:\/\/\S+)/.exec(out);
      if (found !== null) {
        clearTimeout(timer);
        // Keep draining standard output (block lines) so the pipe never fills.
        child.stdout!.off("data", onData);
        child.stdout!.resume();
        resolve(found[1]!);
      }
    };
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", onData);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the node exited (${how}) before it was ready: ${err}`));
    });
  });
  return {
    url,
    child,
    exited,
    api: (chainId) => `${url}/chainweb/0.0/development/chain/${chainId}/pact/api/v1`,
    stderr: () => err,
  };
}

/** Kills the node with SIGKILL and waits until it has gone. */
export async function killNode(node: NodeProcess): Promise<void> {
  node.child.kill("SIGKILL");
  await node.exited;
}

/** POSTs JSON text; resolves with the status and the body text. */
export async function post(url: string, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: response.status, text: await response.text() };
}

const KEYS = DEV_ACCOUNTS.map((a) => keyPairFromSeed(decodeHex(a.secretKey, 32)));

/**
 * A signed `coin.transfer` from `senderNN` to `senderMM` of `amount` (decimal text with a
 * fraction digit) on a chain, with the sender paying gas and signing GAS and TRANSFER.
 */
export function transferCommand(
  from: number,
  to: number,
  amount: string,
  chainId: number,
  nonce: string,
): CommandJson {
  const sender = DEV_ACCOUNTS[from]!;
  const receiver = DEV_ACCOUNTS[to]!;
  const cmd = JSON.stringify({
    payload: {
      exec: {
        code: `(coin.transfer "${sender.name}" "${receiver.name}" ${amount})`,
        data: null,
      },
    },
    nonce,
    signers: [
      {
        pubKey: sender.publicKey,
        scheme: "ED25519",
        clist: [
          { name: "coin.GAS", args: [] },
          {
            name: "coin.TRANSFER",
            args: [sender.name, receiver.name, { decimal: amount }],
          },
        ],
      },
    ],
    meta: {
      gasLimit: 2500,
      gasPrice: 1e-8,
      sender: sender.name,
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 60,
      chainId: String(chainId),
    },
    networkId: "development",
  });
  return signCommand(cmd, [KEYS[from]!], "blake2b");
}

/** An unsigned `local` command running `code` on a chain. */
export function localCommand(code: string, chainId: number, nonce: string): CommandJson {
  const cmd = JSON.stringify({
    payload: { exec: { code, data: null } },
    nonce,
    signers: [],
    meta: {
      gasLimit: 100_000,
      gasPrice: 1e-8,
      sender: "sender00",
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 60,
      chainId: String(chainId),
    },
    networkId: "development",
  });
  return signCommand(cmd, [], "blake2b");
}
