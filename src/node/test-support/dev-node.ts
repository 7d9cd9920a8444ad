/**
 * In-process nodes and signed commands for tests and benchmarks (not built into `dist/`): a node
 * that makes blocks only when told to, every block it made after genesis, and a command signed
 * by a development account.
 */

import type { Block } from "../../chain/db/index.ts";
import type {
  CommandJson,
  ParsedCommand,
  PrivateMeta,
  SigCapability,
  Verifier,
} from "../../command/index.ts";
import {
  commandHash,
  encodeCommandPayload,
  parseCommand,
  signCommand,
} from "../../command/index.ts";
import {
  type SoftwareAuthenticator,
  signatureText,
} from "../../command/test-support/authenticator.ts";
import { decodeHex, encodeBase64Url } from "../../crypto/index.ts";
import { JsonNumber, type JsonValue, parseJson } from "../../pact/values/index.ts";
import { DEV_ACCOUNTS } from "../genesis/accounts.ts";
import { makeLogger } from "../logger.ts";
import { BraidNode } from "../node.ts";
import { type RawOptions, resolveNodeOptions } from "../options.ts";

/**
 * An in-memory node whose blocks are made only when the caller says so; `options` adds to that
 * (another miner, say). A block it makes takes every command that fits its gas, however long
 * they run (no time budget, unless `blockTimeBudgetMs` gives one), so that which block a command
 * joins never depends on how busy the machine is.
 */
export function manualNode(
  options: RawOptions = {},
  blockTimeBudgetMs = Number.POSITIVE_INFINITY,
): BraidNode {
  const resolved = resolveNodeOptions({ inMemory: true, mining: "none", ...options }, {});
  return BraidNode.open(
    {
      ...resolved,
      execution: { ...resolved.execution, blockTimeBudgetMs },
    },
    makeLogger("error"),
  );
}

/** Every block of a node after genesis, parents before children. */
export function blocksAfterGenesis(node: BraidNode): Block[] {
  const blocks: Block[] = [];
  const top = Math.max(...node.chains.map((c) => c.head.height));
  for (let height = 1; height <= top; height++) {
    for (const chain of node.chains) {
      for (const header of node.chainDb.headersAtHeight(chain.chainId, height)) {
        blocks.push(node.chainDb.block(header.hash)!);
      }
    }
  }
  return blocks;
}

export interface DevCommand {
  readonly code: string;
  /** The transaction data as JSON text (default `{}`). */
  readonly data?: string;
  /** The capabilities the signature is scoped to (none: unscoped). */
  readonly caps?: readonly SigCapability[];
  readonly nonce: string;
  readonly chainId?: string;
  readonly gasLimit?: number;
  /** Index into `DEV_ACCOUNTS` of the sender and signer (default 0, sender00). */
  readonly account?: number;
  /** The command's verifiers (default: no `verifiers` field). */
  readonly verifiers?: readonly Verifier[];
  /** Another gas payer, signed for by `passkey` (a WebAuthn signer) instead of a development key. */
  readonly passkeyAccount?: {
    readonly name: string;
    readonly passkey: SoftwareAuthenticator;
  };
  /** Another sender and signer than a development account (one ED25519 key, hex). */
  readonly signer?: {
    readonly name: string;
    readonly publicKey: string;
    readonly secretKey: string;
  };
  /** Creation time in seconds (default: 10 s ago by the system clock). */
  readonly creationTime?: number;
  /** Private metadata instead of public (a `private` command; `gasLimit` and the times unused). */
  readonly privateMeta?: PrivateMeta;
}

/**
 * A command signed (Blake2b, as @kadena/client does) by a development account (or `signer`),
 * which is also its gas payer — or by the passkey of `passkeyAccount`; created 10 s ago (or at
 * `creationTime`) with an hour to live, gas price 1e-8.
 */
export function devCommand(spec: DevCommand): ParsedCommand {
  const account = spec.signer ?? DEV_ACCOUNTS[spec.account ?? 0]!;
  const passkey = spec.passkeyAccount?.passkey;
  const clist = spec.caps ?? [];
  const payload = {
    payload: {
      kind: "exec" as const,
      code: spec.code,
      data: parseJson(spec.data ?? "{}"),
    },
    meta: spec.privateMeta ?? {
      kind: "public" as const,
      creationTime: spec.creationTime ?? Math.floor(Date.now() / 1000) - 10,
      ttl: 3600,
      gasLimit: spec.gasLimit ?? 2000,
      chainId: spec.chainId ?? "0",
      gasPrice: new JsonNumber("0.00000001"),
      sender: spec.passkeyAccount?.name ?? account.name,
    },
    signers: [
      passkey === undefined
        ? { pubKey: account.publicKey, scheme: null, addr: null, clist }
        : {
            pubKey: passkey.publicKey,
            scheme: "WebAuthn" as const,
            addr: null,
            clist,
          },
    ],
    verifiers: spec.verifiers ?? null,
    networkId: "development",
    nonce: spec.nonce,
  };
  const cmd = encodeCommandPayload(payload);
  const body =
    passkey === undefined
      ? signCommand(
          cmd,
          [
            {
              publicKey: decodeHex(account.publicKey),
              secretKey: decodeHex(account.secretKey),
            },
          ],
          "blake2b",
        )
      : passkeySigned(cmd, passkey);
  const parsed = parseCommand(body);
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join("; "));
  return parsed.command;
}

function passkeySigned(cmd: string, passkey: SoftwareAuthenticator): CommandJson {
  const hash = commandHash(cmd, "blake2b");
  return {
    cmd,
    hash: encodeBase64Url(hash),
    sigs: [{ sig: signatureText(passkey.assert(hash)) }],
  };
}

/** A capability with its arguments as Pact JSON (numbers given as decimal text). */
export function cap(name: string, ...args: (string | JsonNumber)[]): SigCapability {
  return { name, args: args as JsonValue[] };
}

/** `coin.GAS`, which every gas payer signs. */
export const GAS_CAP: SigCapability = cap("coin.GAS");

/**
 * sender00's signed transfer of `amount` (decimal text) to sender01 on chain 0, with the
 * capabilities it needs.
 */
export function devTransfer(amount: string, nonce: string, creationTime?: number): ParsedCommand {
  return devCommand({
    code: `(coin.transfer "sender00" "sender01" ${amount})`,
    caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber(amount))],
    nonce,
    creationTime,
  });
}
