/**
 * The genesis transactions of a chain: install the interfaces, `coin` and
 * `ns`, open the `free`, `user` and `util` namespaces, and fund the
 * development accounts.
 *
 * Every value that varies (account names, keys, amounts) travels in `data`
 * and is read by the code with `read-msg`, `read-keyset` and `read-decimal`;
 * the code itself is made of fixed text and the contract files only.
 */
import {
  BRAID_ADMIN_KEY,
  BRAID_ADMIN_KEYSET,
  DEV_ACCOUNTS,
  type DevAccount,
  keysetOf,
} from "./accounts.ts";
import { type ContractFile, contractSource } from "./contracts.ts";

/** A capability the node grants to a genesis transaction without a signature. */
export type GenesisGrant = "coin.COINBASE" | "coin.GENESIS";

/** One genesis transaction: Pact code, its message data, and the magic capabilities it needs. */
export interface GenesisTransaction {
  /** A short label for logs and tests. */
  readonly name: string;
  readonly code: string;
  readonly data: Record<string, unknown>;
  /** Capabilities the node must grant while running `code` (the `coin.*` magic capabilities). */
  readonly grants: readonly GenesisGrant[];
}

/** Number of chains of the development network; chain ids are "0" … "19". */
export const CHAIN_COUNT = 20;

/** The namespaces opened to everyone at genesis. */
export const OPEN_NAMESPACES = ["free", "user", "util"] as const;

function install(name: string, file: ContractFile, after = ""): GenesisTransaction {
  const code = after === "" ? contractSource(file) : `${contractSource(file)}\n${after}\n`;
  return { name, code, data: {}, grants: [] };
}

function fund(account: DevAccount): GenesisTransaction {
  return {
    name: `fund ${account.name}`,
    code: '(coin.coinbase (read-msg "account") (read-keyset "account-guard") (read-decimal "amount"))',
    data: { account: account.name, "account-guard": keysetOf(account), amount: account.balance },
    grants: ["coin.COINBASE"],
  };
}

/**
 * The ordered genesis transactions of chain `chainId` ("0" … "19"). Every
 * chain gets the same transactions; the chain id only selects which chain
 * is asked for and is validated here.
 */
export function genesisTransactions(chainId: string): GenesisTransaction[] {
  const n = Number(chainId);
  if (!/^(0|[1-9][0-9]?)$/.test(chainId) || n >= CHAIN_COUNT) {
    throw new RangeError(`not a chain of the development network: ${JSON.stringify(chainId)}`);
  }
  return [
    {
      name: `define keyset ${BRAID_ADMIN_KEYSET}`,
      code: '(define-keyset "braid-admin" (read-keyset "braid-admin"))',
      data: { [BRAID_ADMIN_KEYSET]: keysetOf(BRAID_ADMIN_KEY) },
      grants: [],
    },
    install("interface fungible-v2", "fungible-v2.pact"),
    install("interface fungible-xchain-v1", "fungible-xchain-v1.pact"),
    install("interface gas-payer-v1", "gas-payer-v1.pact"),
    install(
      "module coin",
      "coin.pact",
      "(create-table coin.coin-table)\n(create-table coin.allocation-table)",
    ),
    install("module ns", "ns.pact", "(create-table ns.registry)"),
    {
      name: "open namespaces free, user, util",
      code: [
        '(define-namespace "free" ns.GUARD_SUCCESS ns.GUARD_SUCCESS)',
        '(define-namespace "user" ns.GUARD_SUCCESS ns.GUARD_SUCCESS)',
        '(define-namespace "util" ns.GUARD_SUCCESS ns.GUARD_SUCCESS)',
      ].join("\n"),
      data: {},
      grants: [],
    },
    ...DEV_ACCOUNTS.map(fund),
  ];
}
