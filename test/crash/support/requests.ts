/** The crash test's requests: POSTs to the node's service and signed coin transfers. */
import { signCommand } from "../../../src/command/index.ts";
import type { CommandJson } from "../../../src/command/types.ts";
import { decodeHex, keyPairFromSeed } from "../../../src/crypto/index.ts";
import { DEV_ACCOUNTS } from "../../../src/node/genesis/accounts.ts";

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
