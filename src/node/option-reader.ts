/**
 * Reading the raw values of the node's options (YAML or flags, which arrive as text) one key at a
 * time, each checked, a bad one an error naming its key (options.ts defines the options).
 */
import { type PeerAddress, parsePeerAddress } from "./peer-address.ts";

export class NodeOptionsError extends Error {
  override readonly name = "NodeOptionsError";
}

/** Reads one key at a time; numbers and booleans may arrive as text (from flags). */
export class OptionReader<Key extends string> {
  constructor(private readonly raw: Partial<Record<Key, unknown>>) {}

  private fail(key: string, expected: string, value: unknown): never {
    const shown = JSON.stringify(value) ?? String(value);
    throw new NodeOptionsError(
      `${key} must be ${expected}, got ${shown.length > 80 ? `${shown.slice(0, 80)}…` : shown}`,
    );
  }

  value(key: Key): unknown {
    const value = this.raw[key];
    return value === null ? undefined : value;
  }

  private numeric(key: Key, expected: string): number | undefined {
    const value = this.value(key);
    if (value === undefined) return undefined;
    if (typeof value === "number") return value;
    if (typeof value === "string" && /^[0-9]+(\.[0-9]+)?$/.test(value)) return Number(value);
    return this.fail(key, expected, value);
  }

  integer(key: Key, fallback: number, min: number, max: number): number {
    const expected = `an integer from ${min} to ${max}`;
    const value = this.numeric(key, expected);
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < min || value > max) this.fail(key, expected, value);
    return value;
  }

  number(key: Key, fallback: number, min: number, max: number): number {
    const expected = `a number of seconds from ${min} to ${max}`;
    const value = this.numeric(key, expected);
    if (value === undefined) return fallback;
    if (!(value >= min && value <= max)) this.fail(key, expected, value);
    return value;
  }

  boolean(key: Key, fallback: boolean): boolean {
    const value = this.value(key);
    if (value === undefined) return fallback;
    if (value === true || value === "true") return true;
    if (value === false || value === "false") return false;
    return this.fail(key, "true or false", value);
  }

  string(key: Key, fallback: string | null): string | null {
    const value = this.value(key);
    if (value === undefined) return fallback;
    if (typeof value !== "string" || value === "") this.fail(key, "a non-empty string", value);
    return value;
  }

  choice<T extends string>(key: Key, choices: readonly T[], fallback: T): T {
    const value = this.value(key);
    if (value === undefined) return fallback;
    if (!choices.includes(value as T)) this.fail(key, `one of ${choices.join(", ")}`, value);
    return value as T;
  }

  /** A positive decimal with at most 12 decimal places, kept as its text. */
  decimal(key: Key, fallback: string): string {
    const value = this.value(key);
    if (value === undefined) return fallback;
    const text = typeof value === "number" ? numberText(value) : value;
    if (typeof text !== "string" || !/^[0-9]+(\.[0-9]{1,12})?$/.test(text) || !(Number(text) > 0)) {
      this.fail(key, "a decimal above 0 with at most 12 decimal places", value);
    }
    return text;
  }

  /** A list of hex ED25519 public keys (a comma-separated text from a flag). */
  hexKeys(key: Key): string[] | null {
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

  /** `host:port`. */
  address(key: Key): PeerAddress | null {
    const value = this.value(key);
    if (value === undefined) return null;
    if (typeof value !== "string") return this.fail(key, "host:port", value);
    const address = parsePeerAddress(value);
    if (typeof address === "string") return this.fail(key, `host:port (${address})`, value);
    return address;
  }

  /** A list of `host:port` (a flag given several times, or a YAML list). */
  addresses(key: Key): PeerAddress[] {
    const value = this.value(key);
    if (value === undefined) return [];
    const list = typeof value === "string" ? [value] : value;
    if (!Array.isArray(list)) return this.fail(key, "a list of host:port", value);
    return list.map((item, i) => {
      const address = typeof item === "string" ? parsePeerAddress(item) : "not a string";
      if (typeof address === "string")
        return this.fail(`${key}[${i}]`, `host:port (${address})`, item);
      return address;
    });
  }
}

/** A JavaScript number as plain decimal text (YAML reads 1e-8 as a number). */
function numberText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const fixed = value.toFixed(12).replace(/0+$/, "").replace(/\.$/, "");
  return Number(fixed) === value ? fixed : String(value);
}
