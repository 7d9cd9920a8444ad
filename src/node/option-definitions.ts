/**
 * The node's options defined once (`OPTION_DEFINITIONS`): each one's YAML key, the part of the node
 * it configures, its flag, its default and what it means, with the values and defaults they
 * name. The YAML reader takes its keys from here, the CLI its flags and their help, and
 * docs/node.md its table; options.ts reads and checks the values.
 */
import { availableParallelism } from "node:os";
import {
  DEFAULT_COMMAND_TIME_LIMIT_MS,
  DEFAULT_LOCAL_TIME_LIMIT_MS,
  MAX_COMMAND_TIME_LIMIT_MS,
} from "../execution/index.ts";
import { DEV_ACCOUNTS } from "./genesis/accounts.ts";

export const MINING_MODES = ["on-demand", "interval", "pow", "none"] as const;
export type MiningMode = (typeof MINING_MODES)[number];

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The networks `braid node` runs. */
export const NETWORKS = ["development"] as const;
export type NetworkName = (typeof NETWORKS)[number];

/** The account block rewards and gas fees go to, and the keys that guard it. */
export interface MinerAccount {
  readonly account: string;
  /** Hex ED25519 public keys of the miner's `keys-all` keyset. */
  readonly publicKeys: readonly string[];
}

export const DEFAULT_PORT = 8080;
/** This machine only: a development node is not a public service unless asked to be. */
export const DEFAULT_HOST = "127.0.0.1";
/** Chainweb's default block gas limit (`gasLimitOfBlock`). */
export const DEFAULT_BLOCK_GAS_LIMIT = 150_000;
/** The largest block gas limit accepted: what one block may hold stays well within memory. */
export const MAX_BLOCK_GAS_LIMIT = 10_000_000;
/** Chainweb's default minimum gas price. */
export const DEFAULT_MIN_GAS_PRICE = "0.00000001";
export const DEFAULT_MINING_INTERVAL_SECONDS = 30;
/** Chainweb's `listen` time-out (seconds). */
export const DEFAULT_LISTEN_TIMEOUT_SECONDS = 180;
export const MAX_LISTEN_TIMEOUT_SECONDS = 3_600;
/** Chainweb's service API body limit: 2 MB. */
export const DEFAULT_BODY_LIMIT_BYTES = 2_000_000;
export const MAX_BODY_LIMIT_BYTES = 64_000_000;
/** chainweb-node's limit on one command of a new block: this per unit of the block gas limit. */
export const BLOCK_COMMAND_MICROS_PER_GAS = 12.5;
/** The most execution threads a node starts. */
export const MAX_EXECUTION_THREADS = 64;

/** The machine's cores less the API's thread, at least one. */
export function defaultExecutionThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}
/** The default bound on the peers a node knows (`maxPeers`). */
export const DEFAULT_MAX_PEERS = 32;
export const MAX_MAX_PEERS = 1_000;

/**
 * The development network's miner unless another is configured: the key pair the Kadena devnet
 * publishes for its miner, so tools written for the devnet find the rewards where they expect.
 */
export const DEVNET_MINER: MinerAccount = Object.freeze({
  account: "k:f89ef46927f506c70b6a58fd322450a936311dc6ac91f4ec3d8ef949608dbf1f",
  publicKeys: Object.freeze(["f89ef46927f506c70b6a58fd322450a936311dc6ac91f4ec3d8ef949608dbf1f"]),
});

/**
 * The development network's entity unless another is configured: sender00's key, the key
 * development scripts already sign with.
 */
export const DEVNET_ENTITY_KEYS: readonly string[] = Object.freeze([DEV_ACCOUNTS[0]!.publicKey]);

/** The `entityKeys` value that turns `private` off. */
export const NO_ENTITY_KEYS = "none";

// Every option, defined once: its YAML key, the part of the node it configures, its flag, its
// default and what it means. The YAML reader takes its keys from here, the CLI its flags and
// their help, and docs/node.md its table (a test checks that the two agree).

/** The part of the node an option configures. */
export type OptionModule =
  | "api"
  | "network"
  | "storage"
  | "mining"
  | "mempool"
  | "execution"
  | "p2p"
  | "log";

export interface OptionDefinition {
  /** The YAML key; its flag is the same words in kebab case. */
  readonly key: string;
  readonly module: OptionModule;
  /** The flag's value placeholder (`--port <port>`); null for a switch, undefined: YAML only. */
  readonly value?: string | null;
  /** The flag's name when it is not the key's (`peers` is `--peer`, given once per value). */
  readonly flag?: string;
  /** The flag may be given several times, each adding a value. */
  readonly repeatable?: boolean;
  /** The default as the help and the docs show it. */
  readonly defaultText: string;
  /** What it does. */
  readonly meaning: string;
}

/** `n` with commas between thousands (not `toLocaleString`: it maps ICU's locale data, ~7 MB). */
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ",");

export const OPTION_DEFINITIONS = [
  {
    key: "port",
    module: "api",
    value: "port",
    defaultText: String(DEFAULT_PORT),
    meaning: "HTTP port; 0 picks a free one (the banner shows it)",
  },
  {
    key: "host",
    module: "api",
    value: "address",
    defaultText: DEFAULT_HOST,
    meaning: "address to bind: this machine only unless you say otherwise",
  },
  {
    key: "network",
    module: "network",
    defaultText: "`development`",
    meaning: "the network; `development` is the only one the node runs",
  },
  {
    key: "genesis",
    module: "network",
    value: "path",
    defaultText: "Braid's own",
    meaning:
      "start from chainweb-node's `development` genesis: a chainweb-node checkout (its generated `src/Chainweb/BlockHeader/Genesis/Development*Payload.hs`) or a folder of their JSON form (`Development0Payload.json`, `Development1to19Payload.json`), each output checked against chainweb-node's",
  },
  {
    key: "dataDir",
    module: "storage",
    value: "dir",
    defaultText: "`./.braid/<network>`",
    meaning: "where the databases live",
  },
  {
    key: "inMemory",
    module: "storage",
    value: null,
    defaultText: "false",
    meaning: "keep everything in memory; nothing is written (not with `dataDir`)",
  },
  {
    key: "mining",
    module: "mining",
    value: "mode",
    defaultText: "`on-demand`",
    meaning: `how blocks are made: ${MINING_MODES.map((m) => `\`${m}\``).join(", ")}`,
  },
  {
    key: "miningInterval",
    module: "mining",
    value: "seconds",
    defaultText: String(DEFAULT_MINING_INTERVAL_SECONDS),
    meaning: "seconds between blocks in `interval` mode (0.01 to 86,400)",
  },
  {
    key: "minerAccount",
    module: "mining",
    value: "name",
    defaultText: `the devnet miner \`${DEVNET_MINER.account.slice(0, 10)}…\``,
    meaning: "account paid the block rewards and gas fees; with `minerKeys`",
  },
  {
    key: "minerKeys",
    module: "mining",
    value: "keys",
    defaultText: "the devnet miner's key",
    meaning:
      "hex public keys of the miner's `keys-all` keyset (comma-separated on the command line); with `minerAccount`",
  },
  {
    key: "blockGasLimit",
    module: "mempool",
    value: "gas",
    defaultText: thousands(DEFAULT_BLOCK_GAS_LIMIT),
    meaning: `gas limit of a block (Chainweb's default); at most ${thousands(MAX_BLOCK_GAS_LIMIT)}`,
  },
  {
    key: "minGasPrice",
    module: "mempool",
    value: "price",
    defaultText: DEFAULT_MIN_GAS_PRICE,
    meaning: "lowest gas price the mempool accepts (at most 12 decimals)",
  },
  {
    key: "entityKeys",
    module: "mempool",
    value: "keys",
    defaultText: "sender00's key",
    meaning: `hex public keys of this node's entity: \`private\` admits only commands one of them signs (comma-separated on the command line); \`${NO_ENTITY_KEYS}\` turns \`private\` off`,
  },
  {
    key: "commandTimeLimit",
    module: "execution",
    value: "ms",
    defaultText: String(DEFAULT_COMMAND_TIME_LIMIT_MS),
    meaning: `milliseconds one command may run in \`local\` or in a block this node makes (timed out: \`local\` answers 400, a block leaves it out); at most ${thousands(MAX_COMMAND_TIME_LIMIT_MS)}`,
  },
  {
    key: "executionThreads",
    module: "execution",
    value: "n",
    defaultText: "the machine's cores less one, at least 1",
    meaning: `threads that run \`local\` beside the API's, each on its own read-only view of the contract states (0: on the API's thread, as on a node in memory); at most ${MAX_EXECUTION_THREADS}`,
  },
  {
    key: "localTimeLimit",
    module: "execution",
    value: "ms",
    defaultText: thousands(DEFAULT_LOCAL_TIME_LIMIT_MS),
    meaning: `milliseconds one \`local\` may run on an execution thread (chainweb-node's limit; timed out: a 400); where \`local\` runs on the API's thread, \`commandTimeLimit\` applies instead; at most ${thousands(MAX_COMMAND_TIME_LIMIT_MS)}`,
  },
  {
    key: "blockCommandTimeLimit",
    module: "execution",
    value: "ms",
    defaultText: "12.5 µs × `blockGasLimit` (1,875)",
    meaning: `milliseconds one command of a block this node makes may run on an execution thread (chainweb-node's limit; timed out: left out of the block); on the node's thread \`commandTimeLimit\` applies instead; at most ${thousands(MAX_COMMAND_TIME_LIMIT_MS)}`,
  },
  {
    key: "peers",
    module: "p2p",
    value: "host:port",
    flag: "peer",
    repeatable: true,
    defaultText: "none",
    meaning:
      "a node to sync with over Chainweb's P2P API (repeat the flag; a list in YAML); more are learnt from it (docs/network.md)",
  },
  {
    key: "announce",
    module: "p2p",
    value: "host:port",
    defaultText: "`host`:`port` unless `host` is a wildcard",
    meaning:
      "the address this node tells its peers to reach it at (in `PUT /cut` and `PUT /cut/peer`); with a wildcard `host` and no `announce`, peers reach it only by `--peer`",
  },
  {
    key: "maxPeers",
    module: "p2p",
    value: "count",
    defaultText: String(DEFAULT_MAX_PEERS),
    meaning: `most peers the node keeps in its peer database (configured ones always kept); 1 to ${thousands(MAX_MAX_PEERS)}`,
  },
  {
    key: "requirePow",
    module: "p2p",
    value: "true|false",
    defaultText: "true in `pow` mode, else false",
    meaning:
      "refuse blocks from peers without their proof of work (the development network's blocks made on demand carry none: a network of pow miners sets it on every node)",
  },
  {
    key: "p2pCertificate",
    module: "p2p",
    value: "file",
    defaultText: "none (plain HTTP)",
    meaning:
      "PEM certificate chain: the node serves HTTPS (service and P2P API) and calls its peers over HTTPS (chainweb-node's `--p2p-certificate-chain-file`); with `p2pKey`",
  },
  {
    key: "p2pKey",
    module: "p2p",
    value: "file",
    defaultText: "none",
    meaning: "PEM private key of `p2pCertificate` (chainweb-node's `--p2p-certificate-key-file`)",
  },
  {
    key: "logLevel",
    module: "log",
    value: "level",
    defaultText: "`info`",
    meaning: `${LOG_LEVELS.map((l) => `\`${l}\``).join(", ")}, a level showing its own lines and those of the levels after it. \`error\`: the node's own failures (\`storage: disk full: no more blocks, writes refused with 503 until it works again\`); \`warn\`: commands left out of a block and peers that fail (\`chain 0: left out <request key>: …\`, \`peer 10.0.0.2:1789: …\`); \`info\`: the banner, each block holding transactions and every block this node solved in \`pow\` mode (\`chain  0  height      2  txs   1  yZL5XSEI_Tc2  mined\`, or \`from peer\`), each transaction under its block (\`chain  0  height      2  tx  <request key>  failure  gas    2500  at coin.transfer.{…}:246  "…"\`); \`debug\`: also the empty blocks that keep the chains braided (\`txs   0\`) and a chain's head moved by a peer's blocks (\`chain 3: now at … (height 40)\`)`,
  },
  {
    key: "listenTimeout",
    module: "api",
    value: "seconds",
    defaultText: String(DEFAULT_LISTEN_TIMEOUT_SECONDS),
    meaning: "seconds `listen` waits before answering 504 (Chainweb's value)",
  },
  {
    key: "bodyLimit",
    module: "api",
    defaultText: thousands(DEFAULT_BODY_LIMIT_BYTES),
    meaning: "largest request body in bytes (Chainweb's service API limit)",
  },
  {
    key: "devControls",
    module: "api",
    value: null,
    defaultText: "false",
    meaning:
      "serve the development controls (`/braid/dev/…`) when `host` is not a loopback address: anyone who can reach the node may then mine, move its clock, revert and fund",
  },
] as const satisfies readonly OptionDefinition[];

export type OptionKey = (typeof OPTION_DEFINITIONS)[number]["key"];

/** The YAML keys, in the table's order. */
export const OPTION_KEYS: readonly OptionKey[] = OPTION_DEFINITIONS.map((o) => o.key);

/** An option's flag (`dataDir` is `--data-dir`, `peers` `--peer`). */
export function flagOf(key: string): string {
  const name =
    (OPTION_DEFINITIONS as readonly OptionDefinition[]).find((o) => o.key === key)?.flag ?? key;
  return `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/**
 * The flags as commander takes them: `--port <port>`, `--in-memory`; YAML-only ones left out.
 * `attribute` is where commander puts the value (the flag in camel case), `key` the option's.
 */
export function optionFlags(): {
  flags: string;
  help: string;
  key: string;
  attribute: string;
  repeatable: boolean;
}[] {
  return (OPTION_DEFINITIONS as readonly OptionDefinition[])
    .filter((o) => o.value !== undefined)
    .map((o) => ({
      flags: o.value === null ? flagOf(o.key) : `${flagOf(o.key)} <${o.value}>`,
      help: `${o.meaning.replace(/`/g, "")} (default ${o.defaultText.replace(/`/g, "")})`,
      key: o.key,
      attribute: o.flag ?? o.key,
      repeatable: o.repeatable === true,
    }));
}

/** docs/node.md's table of options (Markdown). */
export function optionsTableMarkdown(): string {
  const rows = (OPTION_DEFINITIONS as readonly OptionDefinition[]).map(
    (o) =>
      `| \`${o.key}\` | ${o.value === undefined ? "—" : `\`${flagOf(o.key)}\``} | ${o.module} | ${o.defaultText} | ${o.meaning} |`,
  );
  return ["| YAML key | flag | part | default | meaning |", "|---|---|---|---|---|", ...rows].join(
    "\n",
  );
}
