/**
 * The node's configuration: each option defined once (`OPTION_DEFINITIONS`), read from defaults,
 * a YAML file (`--config`) and command-line flags, flags over file over defaults. Every value is
 * checked here, and a bad one is an error naming its key. Documented in docs/node.md.
 */
import { resolve } from "node:path";
import { readConfigYaml } from "../command/yaml-input.ts";
import { DEFAULT_COMMAND_TIME_LIMIT_MS } from "../execution/index.ts";
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

/** The HTTP service's options. */
export interface ApiOptions {
  /** TCP port; 0 picks a free one. */
  readonly port: number;
  readonly host: string;
  /** How long `listen` waits before answering 504 (seconds). */
  readonly listenTimeoutSeconds: number;
  /** The largest request body accepted (bytes). */
  readonly bodyLimit: number;
  /** Serve the development controls even when `host` is not a loopback address. */
  readonly devControls: boolean;
}

export interface StorageOptions {
  /** Folder of the node's databases; null keeps everything in memory. */
  readonly dataDir: string | null;
}

export interface MiningOptions {
  readonly mode: MiningMode;
  /** Seconds between blocks in `interval` mode. */
  readonly intervalSeconds: number;
  /** Who the block rewards and gas fees go to. */
  readonly miner: MinerAccount;
}

export interface MempoolOptions {
  readonly blockGasLimit: number;
  /** The lowest gas price the mempool accepts, as decimal text (e.g. "0.00000001"). */
  readonly minGasPrice: string;
  /**
   * Lowercase hex ED25519 public keys of the entity this node plays: `private` admits only
   * commands one of them signed; none turns `private` off.
   */
  readonly entityKeys: readonly string[];
}

export interface ExecutionOptions {
  /**
   * Milliseconds one command may run where the node answers for its time: `local`, and each
   * command of a block this node makes (never a block it replays or imports).
   */
  readonly commandTimeLimitMs: number;
}

/** The node's options, by the part of the node each configures (`OPTION_DEFINITIONS`' parts). */
export interface NodeOptions {
  readonly network: NetworkName;
  readonly api: ApiOptions;
  readonly storage: StorageOptions;
  readonly mining: MiningOptions;
  readonly mempool: MempoolOptions;
  readonly execution: ExecutionOptions;
  readonly log: { readonly level: LogLevel };
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
export const MAX_COMMAND_TIME_LIMIT_MS = 60_000;

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

export class NodeOptionsError extends Error {
  override readonly name = "NodeOptionsError";
}

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
  | "log";

export interface OptionDefinition {
  /** The YAML key; its flag is the same words in kebab case. */
  readonly key: string;
  readonly module: OptionModule;
  /** The flag's value placeholder (`--port <port>`); null for a switch, undefined: YAML only. */
  readonly value?: string | null;
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
    key: "logLevel",
    module: "log",
    value: "level",
    defaultText: "`info`",
    meaning: `${LOG_LEVELS.map((l) => `\`${l}\``).join(", ")}: \`info\` shows the banner and one line per block`,
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

type OptionKey = (typeof OPTION_DEFINITIONS)[number]["key"];

/** The YAML keys, in the table's order. */
export const OPTION_KEYS: readonly OptionKey[] = OPTION_DEFINITIONS.map((o) => o.key);

/** An option's flag (`dataDir` is `--data-dir`). */
export function flagOf(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** The flags as commander takes them: `--port <port>`, `--in-memory`; YAML-only ones left out. */
export function optionFlags(): { flags: string; help: string }[] {
  return (OPTION_DEFINITIONS as readonly OptionDefinition[])
    .filter((o) => o.value !== undefined)
    .map((o) => ({
      flags: o.value === null ? flagOf(o.key) : `${flagOf(o.key)} <${o.value}>`,
      help: `${o.meaning.replace(/`/g, "")} (default ${o.defaultText.replace(/`/g, "")})`,
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

/** Raw values by key, from YAML or from flags (flags arrive as strings). */
export type RawOptions = Partial<Record<OptionKey, unknown>>;

/** Reads a YAML configuration file's text into raw values, refusing unknown keys. */
export function parseOptionsYaml(text: string, path: string): RawOptions {
  const value = readConfigYaml(text, path, (message) => new NodeOptionsError(message));
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new NodeOptionsError(
      `${path}: the configuration must be a YAML mapping of keys to values`,
    );
  }
  for (const key of Object.keys(value)) {
    if (!(OPTION_KEYS as readonly string[]).includes(key)) {
      throw new NodeOptionsError(
        `${path}: unknown key ${JSON.stringify(key).slice(0, 80)}; the keys are ${OPTION_KEYS.join(", ")}`,
      );
    }
  }
  return value as RawOptions;
}

/**
 * The options from raw values: `flags` over `file` over the defaults. Relative `dataDir`s are
 * relative to `cwd`.
 */
export function resolveNodeOptions(
  file: RawOptions,
  flags: RawOptions,
  cwd: string = process.cwd(),
): NodeOptions {
  const raw: RawOptions = { ...file };
  for (const [key, value] of Object.entries(flags)) {
    if (value !== undefined) raw[key as OptionKey] = value;
  }
  const read = new OptionReader(raw);
  const network = read.choice("network", NETWORKS, "development");
  const inMemory = read.boolean("inMemory", false);
  const dataDirText = read.string("dataDir", null);
  if (inMemory && dataDirText !== null) {
    throw new NodeOptionsError("inMemory and dataDir cannot be used together");
  }
  const minerAccount = read.string("minerAccount", null);
  const minerKeys = read.hexKeys("minerKeys");
  if ((minerAccount === null) !== (minerKeys === null)) {
    throw new NodeOptionsError("minerAccount and minerKeys must be given together");
  }
  return {
    network,
    api: {
      port: read.integer("port", DEFAULT_PORT, 0, 65_535),
      host: read.string("host", DEFAULT_HOST)!,
      listenTimeoutSeconds: read.number(
        "listenTimeout",
        DEFAULT_LISTEN_TIMEOUT_SECONDS,
        0.001,
        MAX_LISTEN_TIMEOUT_SECONDS,
      ),
      bodyLimit: read.integer("bodyLimit", DEFAULT_BODY_LIMIT_BYTES, 1, MAX_BODY_LIMIT_BYTES),
      devControls: read.boolean("devControls", false),
    },
    storage: { dataDir: inMemory ? null : resolve(cwd, dataDirText ?? `.braid/${network}`) },
    mining: {
      mode: read.choice("mining", MINING_MODES, "on-demand"),
      intervalSeconds: read.number("miningInterval", DEFAULT_MINING_INTERVAL_SECONDS, 0.01, 86_400),
      miner:
        minerAccount === null || minerKeys === null
          ? DEVNET_MINER
          : { account: minerAccount, publicKeys: minerKeys },
    },
    mempool: {
      blockGasLimit: read.integer("blockGasLimit", DEFAULT_BLOCK_GAS_LIMIT, 1, MAX_BLOCK_GAS_LIMIT),
      minGasPrice: read.decimal("minGasPrice", DEFAULT_MIN_GAS_PRICE),
      entityKeys:
        read.value("entityKeys") === NO_ENTITY_KEYS
          ? []
          : (read.hexKeys("entityKeys")?.map((k) => k.toLowerCase()) ?? DEVNET_ENTITY_KEYS),
    },
    execution: {
      commandTimeLimitMs: read.integer(
        "commandTimeLimit",
        DEFAULT_COMMAND_TIME_LIMIT_MS,
        1,
        MAX_COMMAND_TIME_LIMIT_MS,
      ),
    },
    log: { level: read.choice("logLevel", LOG_LEVELS, "info") },
  };
}

/** Reads one key at a time; numbers and booleans may arrive as text (from flags). */
class OptionReader {
  constructor(private readonly raw: RawOptions) {}

  private fail(key: string, expected: string, value: unknown): never {
    const shown = JSON.stringify(value) ?? String(value);
    throw new NodeOptionsError(
      `${key} must be ${expected}, got ${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown}`,
    );
  }

  value(key: OptionKey): unknown {
    const value = this.raw[key];
    return value === null ? undefined : value;
  }

  private numeric(key: OptionKey, expected: string): number | undefined {
    const value = this.value(key);
    if (value === undefined) return undefined;
    if (typeof value === "number") return value;
    if (typeof value === "string" && /^[0-9]+(\.[0-9]+)?$/.test(value)) return Number(value);
    return this.fail(key, expected, value);
  }

  integer(key: OptionKey, fallback: number, min: number, max: number): number {
    const expected = `an integer from ${min} to ${max}`;
    const value = this.numeric(key, expected);
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < min || value > max) this.fail(key, expected, value);
    return value;
  }

  number(key: OptionKey, fallback: number, min: number, max: number): number {
    const expected = `a number of seconds from ${min} to ${max}`;
    const value = this.numeric(key, expected);
    if (value === undefined) return fallback;
    if (!(value >= min && value <= max)) this.fail(key, expected, value);
    return value;
  }

  boolean(key: OptionKey, fallback: boolean): boolean {
    const value = this.value(key);
    if (value === undefined) return fallback;
    if (value === true || value === "true") return true;
    if (value === false || value === "false") return false;
    return this.fail(key, "true or false", value);
  }

  string(key: OptionKey, fallback: string | null): string | null {
    const value = this.value(key);
    if (value === undefined) return fallback;
    if (typeof value !== "string" || value === "") this.fail(key, "a non-empty string", value);
    return value;
  }

  choice<T extends string>(key: OptionKey, choices: readonly T[], fallback: T): T {
    const value = this.value(key);
    if (value === undefined) return fallback;
    if (!choices.includes(value as T)) this.fail(key, `one of ${choices.join(", ")}`, value);
    return value as T;
  }

  /** A positive decimal with at most 12 decimal places, kept as its text. */
  decimal(key: OptionKey, fallback: string): string {
    const value = this.value(key);
    if (value === undefined) return fallback;
    const text = typeof value === "number" ? numberText(value) : value;
    if (typeof text !== "string" || !/^[0-9]+(\.[0-9]{1,12})?$/.test(text) || !(Number(text) > 0)) {
      this.fail(key, "a decimal above 0 with at most 12 decimal places", value);
    }
    return text;
  }

  /** A list of hex ED25519 public keys (a comma-separated text from a flag). */
  hexKeys(key: OptionKey): string[] | null {
    const value = this.value(key);
    if (value === undefined) return null;
    const keys = typeof value === "string" ? value.split(",").map((k) => k.trim()) : value;
    if (!Array.isArray(keys) || keys.length === 0) {
      return this.fail(key, "a list of hex public keys", value);
    }
    keys.forEach((k, i) => {
      if (typeof k !== "string" || !/^[0-9a-fA-F]{64}$/.test(k)) {
        this.fail(`${key}[${i}]`, "a public key of 64 hex digits", k);
      }
    });
    return keys as string[];
  }
}

/** A JavaScript number as plain decimal text (YAML reads 1e-8 as a number). */
function numberText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const fixed = value.toFixed(12).replace(/0+$/, "").replace(/\.$/, "");
  return Number(fixed) === value ? fixed : String(value);
}
