/**
 * The genesis transactions of a chain: define the governance keysets, install the interfaces,
 * `coin` and `ns` (with the registry's entries), define the namespaces, and fund the development
 * accounts.
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
  NS_KEYSETS,
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

/**
 * The namespaces anyone may install code in and nobody may redefine (user guard
 * `ns.GUARD_SUCCESS`, admin guard `ns.GUARD_FAILURE`): Chainweb's `free` and `user`. Like
 * chainweb-node's development genesis, Braid's defines no `util`: the registry's operators
 * (sender00) register it, as deployment scripts written for that network do.
 */
export const OPEN_NAMESPACES = ["free", "user"] as const;

/** The namespace of the registry's operators (guard: the keyset `ns-operate-keyset`). */
const OPERATORS_NAMESPACE = "kadena";

function install(name: string, file: ContractFile, after = ""): GenesisTransaction {
  const code = after === "" ? contractSource(file) : `${contractSource(file)}\n${after}\n`;
  return { name, code, data: {}, grants: [] };
}

function fund(account: DevAccount): GenesisTransaction {
  return {
    name: `fund ${account.name}`,
    code: '(coin.coinbase (read-msg "account") (read-keyset "account-guard") (read-decimal "amount"))',
    data: {
      account: account.name,
      "account-guard": keysetOf(account),
      amount: account.balance,
    },
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
  const keysets = [BRAID_ADMIN_KEYSET, ...NS_KEYSETS];
  const operators = '(keyset-ref-guard "ns-operate-keyset")';
  return [
    {
      name: `define keysets ${keysets.join(", ")}`,
      code: keysets.map((name) => `(define-keyset "${name}" (read-keyset "${name}"))`).join("\n"),
      data: {
        [BRAID_ADMIN_KEYSET]: keysetOf(BRAID_ADMIN_KEY),
        ...Object.fromEntries(NS_KEYSETS.map((name) => [name, keysetOf(DEV_ACCOUNTS[0]!)])),
      },
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
    // The registry's entries are written directly: installing `ns` grants this transaction its
    // module admin, and `ns.write-registry` would need a signature of `ns-operate-keyset`.
    install(
      "module ns",
      "ns.pact",
      [
        "(create-table ns.registry)",
        `(write ns.registry "${OPERATORS_NAMESPACE}" { "admin-guard": ${operators}, "active": true })`,
        ...OPEN_NAMESPACES.map(
          (name) =>
            `(write ns.registry "${name}" { "admin-guard": ns.GUARD_FAILURE, "active": true })`,
        ),
      ].join("\n"),
    ),
    {
      name: `define namespaces ${OPERATORS_NAMESPACE}, ${OPEN_NAMESPACES.join(", ")}`,
      code: [
        `(define-namespace "${OPERATORS_NAMESPACE}" ${operators} ${operators})`,
        ...OPEN_NAMESPACES.map(
          (name) => `(define-namespace "${name}" ns.GUARD_SUCCESS ns.GUARD_FAILURE)`,
        ),
      ].join("\n"),
      data: {},
      grants: [],
    },
    ...DEV_ACCOUNTS.map(fund),
  ];
}
