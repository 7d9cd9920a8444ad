/**
 * Helpers for driving a node with `@kadena/client` in end-to-end tests: the development
 * accounts' keys, clients on either API path, signed transfers and raw JSON requests.
 */
import {
  createClient,
  createSignWithKeypair,
  type IClient,
  type ICommand,
  type IUnsignedCommand,
  Pact,
} from "@kadena/client";
import { DEV_ACCOUNTS, type DevKeyPair } from "../../../src/node/genesis/accounts.ts";

export const NETWORK = "development";
export const SENDER00 = DEV_ACCOUNTS[0]!;
export const SENDER01 = DEV_ACCOUNTS[1]!;

/** `pact` (where Chainweb serves the endpoints) or `contract` (the interface spec's path). */
export type ApiPath = "pact" | "contract";

export function clientFor(url: string, path: ApiPath, confirmationDepth?: number): IClient {
  const host = ({ chainId, networkId }: { chainId: string; networkId: string }) =>
    `${url}/chainweb/0.0/${networkId}/chain/${chainId}/${path}`;
  return confirmationDepth === undefined
    ? createClient(host)
    : createClient(host, { confirmationDepth });
}

/** The endpoint URL `{url}/chainweb/0.0/{network}/chain/{chain}/{path}/api/v1/{endpoint}`. */
export function endpoint(
  url: string,
  endpointName: string,
  options: { chain?: string; path?: ApiPath; network?: string; query?: string } = {},
): string {
  const query = options.query === undefined ? "" : `?${options.query}`;
  return `${url}/chainweb/0.0/${options.network ?? NETWORK}/chain/${options.chain ?? "0"}/${options.path ?? "pact"}/api/v1/${endpointName}${query}`;
}

export interface MetaOverrides {
  chainId?: string;
  gasLimit?: number;
  gasPrice?: number;
  creationTime?: number;
  ttl?: number;
  senderAccount?: string;
}

/** An unsigned `coin.transfer` of `amount` KDA with `coin.GAS` and `coin.TRANSFER` for `from`'s key. */
export function transferCommand(
  from: { name: string; publicKey: string },
  to: string,
  amount: string,
  meta: MetaOverrides = {},
  networkId = NETWORK,
): IUnsignedCommand {
  return Pact.builder
    .execution(`(coin.transfer ${JSON.stringify(from.name)} ${JSON.stringify(to)} ${amount})`)
    .addSigner(from.publicKey, (signFor) => [
      signFor("coin.GAS"),
      signFor("coin.TRANSFER", from.name, to, { decimal: amount }),
    ])
    .setMeta({ chainId: "0", senderAccount: from.name, ...meta } as never)
    .setNetworkId(networkId)
    .createTransaction();
}

/**
 * An unsigned `coin.transfer-crosschain` of 2.5 KDA from sender00 on chain 0 to sender01 on
 * chain 1 (the first step; `nonce` makes it unique when given).
 */
export function crossChainTransferCommand(nonce?: string): IUnsignedCommand {
  const builder = Pact.builder
    .execution('(coin.transfer-crosschain "sender00" "sender01" (read-keyset "ks") "1" 2.5)')
    .addData("ks", { keys: [SENDER01.publicKey], pred: "keys-all" })
    .addSigner(SENDER00.publicKey, (withCap) => [
      withCap("coin.GAS"),
      withCap("coin.TRANSFER_XCHAIN", "sender00", "sender01", { decimal: "2.5" }, "1"),
    ])
    .setMeta({ chainId: "0", senderAccount: "sender00", gasLimit: 10_000 })
    .setNetworkId(NETWORK);
  return (nonce === undefined ? builder : builder.setNonce(nonce)).createTransaction();
}

/** Signs a command with one key pair. */
export async function signWith(keys: DevKeyPair, command: IUnsignedCommand): Promise<ICommand> {
  const signed = await createSignWithKeypair(keys)(command);
  return signed as ICommand;
}

/** A read-only command for `local` (no signers). */
export function readCommand(code: string, chainId = "0"): IUnsignedCommand {
  return Pact.builder
    .execution(code)
    .setMeta({ chainId: chainId as "0" })
    .setNetworkId(NETWORK)
    .createTransaction();
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** POSTs a JSON body and returns the status, headers and body text. */
export async function postJson(url: string, body: unknown): Promise<RawResponse> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}
