/**
 * The JSON forms of payloads (chainweb-wire.md §4): byte strings as unpadded base64url.
 * - PayloadData: {"transactions":[tx..],"minerData","transactionsHash","outputsHash","payloadHash"}
 * - PayloadWithOutputs: {"transactions":[[tx,out]..],"minerData","transactionsHash",
 *   "outputsHash","payloadHash","coinbase"}
 * Decoding checks shapes, not hashes: use `payloadHashMismatches` for that.
 */
import { decodeBase64Url, encodeBase64Url } from "../../crypto/index.ts";
import type { PayloadData, PayloadWithOutputs, TransactionWithOutput } from "./payload.ts";

export class PayloadJsonError extends Error {
  override name = "PayloadJsonError";
}

export interface PayloadDataObject {
  transactions: string[];
  minerData: string;
  transactionsHash: string;
  outputsHash: string;
  payloadHash: string;
}

export interface PayloadWithOutputsObject {
  transactions: [string, string][];
  minerData: string;
  transactionsHash: string;
  outputsHash: string;
  payloadHash: string;
  coinbase: string;
}

const b64 = encodeBase64Url;

export function encodePayloadDataObject(payload: PayloadData): PayloadDataObject {
  return {
    transactions: payload.transactions.map(b64),
    minerData: b64(payload.minerData),
    transactionsHash: b64(payload.transactionsHash),
    outputsHash: b64(payload.outputsHash),
    payloadHash: b64(payload.payloadHash),
  };
}

export function encodePayloadWithOutputsObject(
  payload: PayloadWithOutputs,
): PayloadWithOutputsObject {
  return {
    transactions: payload.transactions.map((t) => [b64(t.transaction), b64(t.output)]),
    minerData: b64(payload.minerData),
    transactionsHash: b64(payload.transactionsHash),
    outputsHash: b64(payload.outputsHash),
    payloadHash: b64(payload.payloadHash),
    coinbase: b64(payload.coinbase),
  };
}

export function decodePayloadDataObject(value: unknown): PayloadData {
  const r = new Reader(value, "PayloadData");
  const payload = {
    transactions: r.list("transactions", (v, i) => r.bytes(v, `transactions[${i}]`)),
    minerData: r.bytesField("minerData"),
    transactionsHash: r.hashField("transactionsHash"),
    outputsHash: r.hashField("outputsHash"),
    payloadHash: r.hashField("payloadHash"),
  };
  r.finish();
  return payload;
}

export function decodePayloadWithOutputsObject(value: unknown): PayloadWithOutputs {
  const r = new Reader(value, "PayloadWithOutputs");
  const payload = {
    transactions: r.list("transactions", (v, i): TransactionWithOutput => {
      if (!Array.isArray(v) || v.length !== 2) {
        throw new Error(`transactions[${i}] must be a [transaction, output] pair`);
      }
      return {
        transaction: r.bytes(v[0], `transactions[${i}][0]`),
        output: r.bytes(v[1], `transactions[${i}][1]`),
      };
    }),
    minerData: r.bytesField("minerData"),
    coinbase: r.bytesField("coinbase"),
    transactionsHash: r.hashField("transactionsHash"),
    outputsHash: r.hashField("outputsHash"),
    payloadHash: r.hashField("payloadHash"),
  };
  r.finish();
  return payload;
}

/** Reads fields of one JSON object, gathering every problem for a single error. */
class Reader {
  private readonly object: Record<string, unknown>;
  private readonly problems: string[] = [];

  constructor(
    value: unknown,
    private readonly what: string,
  ) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new PayloadJsonError(`${what} must be a JSON object`);
    }
    this.object = value as Record<string, unknown>;
  }

  bytes(v: unknown, name: string): Uint8Array {
    if (typeof v !== "string") throw new Error(`${name} must be a base64url string`);
    try {
      return decodeBase64Url(v);
    } catch (e) {
      throw new Error(`${name}: ${(e as Error).message}`);
    }
  }

  private field<T>(name: string, read: (v: unknown) => T, fallback: T): T {
    if (!(name in this.object)) {
      this.problems.push(`missing field "${name}"`);
      return fallback;
    }
    try {
      return read(this.object[name]);
    } catch (e) {
      this.problems.push((e as Error).message);
      return fallback;
    }
  }

  bytesField(name: string): Uint8Array {
    return this.field(name, (v) => this.bytes(v, name), new Uint8Array());
  }

  hashField(name: string): Uint8Array {
    return this.field(
      name,
      (v) => {
        const hash = this.bytes(v, name);
        if (hash.length !== 32) throw new Error(`${name} must be 32 bytes, got ${hash.length}`);
        return hash;
      },
      new Uint8Array(32),
    );
  }

  list<T>(name: string, item: (v: unknown, i: number) => T): T[] {
    return this.field(
      name,
      (v) => {
        if (!Array.isArray(v)) throw new Error(`${name} must be an array`);
        return v.map(item);
      },
      [],
    );
  }

  finish(): void {
    if (this.problems.length > 0) {
      throw new PayloadJsonError(`invalid ${this.what}: ${this.problems.join("; ")}`);
    }
  }
}
