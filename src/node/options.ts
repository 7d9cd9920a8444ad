/**
 * The node's configuration: each option defined once (`OPTION_DEFINITIONS`), read from defaults,
 * a YAML file (`--config`) and command-line flags, flags over file over defaults. Every value is
 * checked here, and a bad one is an error naming its key. Documented in docs/node.md.
 */
import { resolve } from "node:path";
import { readConfigYaml } from "../command/yaml-input.ts";
import {
  DEFAULT_COMMAND_TIME_LIMIT_MS,
  DEFAULT_LOCAL_TIME_LIMIT_MS,
  MAX_COMMAND_TIME_LIMIT_MS,
} from "../execution/index.ts";
import { NodeOptionsError, OptionReader } from "./option-reader.ts";
import type { PeerAddress } from "./peer-address.ts";

export * from "./option-definitions.ts";

import {
  BLOCK_COMMAND_MICROS_PER_GAS,
  DEFAULT_BLOCK_GAS_LIMIT,
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_HOST,
  DEFAULT_LISTEN_TIMEOUT_SECONDS,
  DEFAULT_MAX_PEERS,
  DEFAULT_MIN_GAS_PRICE,
  DEFAULT_MINING_INTERVAL_SECONDS,
  DEFAULT_PORT,
  DEVNET_ENTITY_KEYS,
  DEVNET_MINER,
  defaultExecutionThreads,
  LOG_LEVELS,
  type LogLevel,
  MAX_BLOCK_GAS_LIMIT,
  MAX_BODY_LIMIT_BYTES,
  MAX_EXECUTION_THREADS,
  MAX_LISTEN_TIMEOUT_SECONDS,
  MAX_MAX_PEERS,
  MINING_MODES,
  type MinerAccount,
  type MiningMode,
  NETWORKS,
  type NetworkName,
  NO_ENTITY_KEYS,
  OPTION_KEYS,
  type OptionKey,
} from "./option-definitions.ts";

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
  /**
   * Threads that run `local` beside the API's (0: `local` runs on the API's thread, as it
   * always does on a node in memory).
   */
  readonly executionThreads: number;
  /** Milliseconds one `local` may run on an execution thread (chainweb-node's 2 s by default). */
  readonly localTimeLimitMs: number;
  /**
   * Milliseconds one command of a new block may run on an execution thread (chainweb-node's
   * 12.5 µs per unit of the block gas limit by default).
   */
  readonly blockCommandTimeLimitMs: number;
  /**
   * Milliseconds a block this node makes takes commands, the rest left for the next block:
   * `BLOCK_TIME_BUDGET_MS` when absent (no option sets it); tests that need every command in one
   * block lift it.
   */
  readonly blockTimeBudgetMs?: number;
}

/** The node's place in a network of nodes (src/p2p, docs/network.md). */
export interface P2POptions {
  /** The peers given (`--peer`, `peers:`). */
  readonly peers: readonly PeerAddress[];
  /**
   * The address this node tells its peers to reach it at: given, or (undefined) the address
   * the service listens on unless that is a wildcard (then it does not announce itself).
   */
  readonly announce: PeerAddress | undefined;
  readonly maxPeers: number;
  /** Blocks from peers must carry their proof of work (a network of pow miners). */
  readonly requirePow: boolean;
  /**
   * PEM files of a certificate chain and its key: the node serves HTTPS and calls its peers over
   * HTTPS (null: plain HTTP).
   */
  readonly tls: {
    readonly certificateFile: string;
    readonly keyFile: string;
  } | null;
}

/** The node's options, by the part of the node each configures (`OPTION_DEFINITIONS`' parts). */
export interface NodeOptions {
  readonly network: NetworkName;
  /** A chainweb-node checkout or folder of its genesis payloads (null: Braid's own genesis). */
  readonly genesis: string | null;
  readonly api: ApiOptions;
  readonly storage: StorageOptions;
  readonly mining: MiningOptions;
  readonly mempool: MempoolOptions;
  readonly execution: ExecutionOptions;
  readonly p2p: P2POptions;
  readonly log: { readonly level: LogLevel };
}

export { NodeOptionsError } from "./option-reader.ts";

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
  const read = new OptionReader<OptionKey>(raw);
  const network = read.choice("network", NETWORKS, "development");
  const inMemory = read.boolean("inMemory", false);
  const dataDirText = read.string("dataDir", null);
  if (inMemory && dataDirText !== null) {
    throw new NodeOptionsError("inMemory and dataDir cannot be used together");
  }
  const miningMode = read.choice("mining", MINING_MODES, "on-demand");
  const certificateFile = read.string("p2pCertificate", null);
  const keyFile = read.string("p2pKey", null);
  if ((certificateFile === null) !== (keyFile === null)) {
    throw new NodeOptionsError("p2pCertificate and p2pKey must be given together");
  }
  const minerAccount = read.string("minerAccount", null);
  const minerKeys = read.hexKeys("minerKeys");
  if ((minerAccount === null) !== (minerKeys === null)) {
    throw new NodeOptionsError("minerAccount and minerKeys must be given together");
  }
  const blockGasLimit = read.integer(
    "blockGasLimit",
    DEFAULT_BLOCK_GAS_LIMIT,
    1,
    MAX_BLOCK_GAS_LIMIT,
  );
  const genesis = read.string("genesis", null);
  return {
    network,
    genesis: genesis === null ? null : resolve(cwd, genesis),
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
    storage: {
      dataDir: inMemory ? null : resolve(cwd, dataDirText ?? `.braid/${network}`),
    },
    mining: {
      mode: miningMode,
      intervalSeconds: read.number("miningInterval", DEFAULT_MINING_INTERVAL_SECONDS, 0.01, 86_400),
      miner:
        minerAccount === null || minerKeys === null
          ? DEVNET_MINER
          : { account: minerAccount, publicKeys: minerKeys },
    },
    mempool: {
      blockGasLimit,
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
      executionThreads: read.integer(
        "executionThreads",
        defaultExecutionThreads(),
        0,
        MAX_EXECUTION_THREADS,
      ),
      localTimeLimitMs: read.integer(
        "localTimeLimit",
        DEFAULT_LOCAL_TIME_LIMIT_MS,
        1,
        MAX_COMMAND_TIME_LIMIT_MS,
      ),
      blockCommandTimeLimitMs: read.integer(
        "blockCommandTimeLimit",
        Math.min(
          MAX_COMMAND_TIME_LIMIT_MS,
          Math.round((blockGasLimit * BLOCK_COMMAND_MICROS_PER_GAS) / 1000),
        ),
        1,
        MAX_COMMAND_TIME_LIMIT_MS,
      ),
    },
    p2p: {
      peers: read.addresses("peers"),
      announce: read.address("announce") ?? undefined,
      maxPeers: read.integer("maxPeers", DEFAULT_MAX_PEERS, 1, MAX_MAX_PEERS),
      requirePow: read.boolean("requirePow", miningMode === "pow"),
      tls:
        certificateFile === null || keyFile === null
          ? null
          : {
              certificateFile: resolve(cwd, certificateFile),
              keyFile: resolve(cwd, keyFile),
            },
    },
    log: { level: read.choice("logLevel", LOG_LEVELS, "info") },
  };
}
