/**
 * The server's configuration file (YAML), checked key by key: an unknown key, a missing `port` or
 * a value of the wrong kind is an error naming the key. Relative directories are relative to the
 * configuration file's folder.
 */
import { dirname, resolve } from "node:path";
import {
  COMMAND_HASH_ALGORITHMS,
  type CommandHashAlgorithm,
  DEFAULT_COMMAND_HASH,
} from "../../command/hash-algorithm.ts";
import { readConfigYaml } from "../../command/yaml-input.ts";
import { DEFAULT_LOCAL_TIME_LIMIT_MS, MAX_COMMAND_TIME_LIMIT_MS } from "../../execution/index.ts";
import { EXECUTION_FLAGS } from "../../pact/index.ts";
import {
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_ENTITY,
  DEFAULT_HOST,
  DEFAULT_LISTEN_TIMEOUT_SECONDS,
  MAX_BODY_LIMIT_BYTES,
  MAX_LISTEN_TIMEOUT_SECONDS,
} from "./limits.ts";

export interface DevServerConfig {
  /** TCP port; 0 picks a free one. */
  readonly port: number;
  readonly host: string;
  /** Folder of the SQLite files; null keeps everything in memory. */
  readonly persistDir: string | null;
  /** Folder of the access log; null writes it to standard output. */
  readonly logDir: string | null;
  /** SQLite pragmas for the persistent files, e.g. `synchronous = FULL`. */
  readonly pragmas: readonly string[];
  readonly entity: string;
  /** Gas limit per command; 0 for none. */
  readonly gasLimit: number;
  /** Gas per charged action instead of the table costs; 0 for the table costs. */
  readonly gasRate: number;
  readonly flags: readonly string[];
  readonly verbose: boolean;
  readonly listenTimeoutSeconds: number;
  /** The hash algorithm the server calls its own (both are accepted). */
  readonly commandHash: CommandHashAlgorithm;
  readonly bodyLimit: number;
  /** Milliseconds one command may run (chainweb-node's `local` limit unless configured). */
  readonly commandTimeLimitMs: number;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export const CONFIG_KEYS = [
  "port",
  "host",
  "persistDir",
  "logDir",
  "pragmas",
  "entity",
  "gasLimit",
  "gasRate",
  "flags",
  "verbose",
  "listenTimeout",
  "commandHash",
  "bodyLimit",
  "commandTimeLimit",
] as const;

/** A pragma as `name` or `name = value`, value a word or a number. */
const PRAGMA_PATTERN = /^[A-Za-z_]+(\s*=\s*-?[A-Za-z0-9_]+)?$/;

/** Reads the configuration in `text`, from the file `path` (for messages and relative folders). */
export function parseDevServerConfig(text: string, path: string): DevServerConfig {
  const value = readConfigYaml(text, path, (message) => new ConfigError(message));
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigError(`${path}: the configuration must be a YAML mapping of keys to values`);
  }
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
      throw new ConfigError(
        `${path}: unknown key ${JSON.stringify(key)}; the keys are ${CONFIG_KEYS.join(", ")}`,
      );
    }
  }
  const read = new FieldReader(fields, path);
  const folder = dirname(resolve(path));
  const dir = (key: string) => {
    const d = read.optionalString(key);
    return d === null ? null : resolve(folder, d);
  };
  const port = read.integer("port", null, 0, 65_535);
  return {
    port,
    host: read.optionalString("host") ?? DEFAULT_HOST,
    persistDir: dir("persistDir"),
    logDir: dir("logDir"),
    pragmas: read.strings(
      "pragmas",
      (p) => PRAGMA_PATTERN.test(p),
      "a pragma `name` or `name = value`",
    ),
    entity: read.optionalString("entity") ?? DEFAULT_ENTITY,
    gasLimit: read.integer("gasLimit", 0, 0, Number.MAX_SAFE_INTEGER),
    gasRate: read.integer("gasRate", 0, 0, Number.MAX_SAFE_INTEGER),
    flags: read.strings(
      "flags",
      (f) => EXECUTION_FLAGS.includes(f),
      `one of ${EXECUTION_FLAGS.join(", ")}`,
    ),
    verbose: read.boolean("verbose", false),
    listenTimeoutSeconds: read.number(
      "listenTimeout",
      DEFAULT_LISTEN_TIMEOUT_SECONDS,
      MAX_LISTEN_TIMEOUT_SECONDS,
    ),
    commandHash: read.choice("commandHash", COMMAND_HASH_ALGORITHMS, DEFAULT_COMMAND_HASH),
    bodyLimit: read.integer("bodyLimit", DEFAULT_BODY_LIMIT_BYTES, 1, MAX_BODY_LIMIT_BYTES),
    commandTimeLimitMs: read.integer(
      "commandTimeLimit",
      DEFAULT_LOCAL_TIME_LIMIT_MS,
      1,
      MAX_COMMAND_TIME_LIMIT_MS,
    ),
  };
}

class FieldReader {
  constructor(
    private readonly fields: Record<string, unknown>,
    private readonly path: string,
  ) {}

  private fail(key: string, expected: string, value: unknown): never {
    throw new ConfigError(`${this.path}: ${key} must be ${expected}, got ${JSON.stringify(value)}`);
  }

  private present(key: string): unknown {
    const value = this.fields[key];
    return value === null ? undefined : value;
  }

  integer(key: string, fallback: number | null, min: number, max: number): number {
    const value = this.present(key);
    if (value === undefined) {
      if (fallback === null) throw new ConfigError(`${this.path}: the key "${key}" is required`);
      return fallback;
    }
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      this.fail(key, `an integer from ${min} to ${max}`, value);
    }
    return value;
  }

  /** A positive number up to `max`. */
  number(key: string, fallback: number, max: number): number {
    const value = this.present(key);
    if (value === undefined) return fallback;
    if (typeof value !== "number" || !(value > 0) || value > max) {
      this.fail(key, `a number of seconds above 0 and at most ${max}`, value);
    }
    return value;
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.present(key);
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") this.fail(key, "true or false", value);
    return value;
  }

  optionalString(key: string): string | null {
    const value = this.present(key);
    if (value === undefined) return null;
    if (typeof value !== "string" || value === "") this.fail(key, "a non-empty string", value);
    return value;
  }

  choice<T extends string>(key: string, choices: readonly T[], fallback: T): T {
    const value = this.present(key);
    if (value === undefined) return fallback;
    if (!choices.includes(value as T)) this.fail(key, `one of ${choices.join(", ")}`, value);
    return value as T;
  }

  strings(key: string, valid: (s: string) => boolean, what: string): string[] {
    const value = this.present(key);
    if (value === undefined) return [];
    if (!Array.isArray(value)) this.fail(key, "a list", value);
    value.forEach((item, i) => {
      if (typeof item !== "string" || !valid(item)) this.fail(`${key}[${i}]`, what, item);
    });
    return value as string[];
  }
}
