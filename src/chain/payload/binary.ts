/**
 * The binary (application/octet-stream) payload encodings of chainweb-node's Payload.hs:
 * byte strings with u64 big-endian length prefixes, lists with a u64 BE count, hashes as 32
 * raw bytes.
 * - PayloadData: count, (len, tx)…, (len, minerData), payloadHash, transactionsHash, outputsHash
 * - PayloadWithOutputs: count, (len, tx, len, output)…, (len, minerData), (len, coinbase),
 *   payloadHash, transactionsHash, outputsHash
 */
import type { PayloadData, PayloadWithOutputs, TransactionWithOutput } from "./payload.ts";

export class PayloadBinaryError extends Error {
  override name = "PayloadBinaryError";
}

class Writer {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  u64(value: number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(value), false);
    return this.raw(b);
  }
  raw(bytes: Uint8Array): this {
    this.chunks.push(bytes);
    this.size += bytes.length;
    return this;
  }
  sized(bytes: Uint8Array): this {
    return this.u64(bytes.length).raw(bytes);
  }
  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

class Reader {
  private at = 0;
  private readonly view: DataView;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly what: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number, field: string): void {
    if (this.bytes.length - this.at < n) {
      throw new PayloadBinaryError(
        `${this.what} ends at byte ${this.bytes.length} inside ${field} (needs ${n} bytes at ${this.at})`,
      );
    }
  }
  u64(field: string): number {
    this.need(8, field);
    const value = this.view.getBigUint64(this.at, false);
    this.at += 8;
    if (value > BigInt(this.bytes.length)) {
      throw new PayloadBinaryError(`${this.what}: ${field} ${value} exceeds the input's size`);
    }
    return Number(value);
  }
  raw(n: number, field: string): Uint8Array {
    this.need(n, field);
    const out = this.bytes.slice(this.at, this.at + n);
    this.at += n;
    return out;
  }
  sized(field: string): Uint8Array {
    return this.raw(this.u64(`the length of ${field}`), field);
  }
  skipSized(field: string): void {
    const n = this.u64(`the length of ${field}`);
    this.need(n, field);
    this.at += n;
  }
  hash(field: string): Uint8Array {
    return this.raw(32, field);
  }
  finish(): void {
    if (this.at !== this.bytes.length) {
      throw new PayloadBinaryError(
        `${this.what} has ${this.bytes.length - this.at} unexpected bytes after its end`,
      );
    }
  }
}

export function encodePayloadDataBinary(payload: PayloadData): Uint8Array {
  const w = new Writer().u64(payload.transactions.length);
  for (const tx of payload.transactions) w.sized(tx);
  return w
    .sized(payload.minerData)
    .raw(payload.payloadHash)
    .raw(payload.transactionsHash)
    .raw(payload.outputsHash)
    .finish();
}

export function decodePayloadDataBinary(bytes: Uint8Array): PayloadData {
  const r = new Reader(bytes, "binary PayloadData");
  const count = r.u64("the transaction count");
  const transactions: Uint8Array[] = [];
  for (let i = 0; i < count; i++) transactions.push(r.sized(`transaction ${i}`));
  const minerData = r.sized("minerData");
  const payloadHash = r.hash("payloadHash");
  const transactionsHash = r.hash("transactionsHash");
  const outputsHash = r.hash("outputsHash");
  r.finish();
  return { transactions, minerData, transactionsHash, outputsHash, payloadHash };
}

export function encodePayloadWithOutputsBinary(payload: PayloadWithOutputs): Uint8Array {
  const w = new Writer().u64(payload.transactions.length);
  for (const t of payload.transactions) w.sized(t.transaction).sized(t.output);
  return w
    .sized(payload.minerData)
    .sized(payload.coinbase)
    .raw(payload.payloadHash)
    .raw(payload.transactionsHash)
    .raw(payload.outputsHash)
    .finish();
}

export function decodePayloadWithOutputsBinary(bytes: Uint8Array): PayloadWithOutputs {
  const r = new Reader(bytes, "binary PayloadWithOutputs");
  const count = r.u64("the transaction count");
  const transactions: TransactionWithOutput[] = [];
  for (let i = 0; i < count; i++) {
    transactions.push({ transaction: r.sized(`transaction ${i}`), output: r.sized(`output ${i}`) });
  }
  const minerData = r.sized("minerData");
  const coinbase = r.sized("coinbase");
  const payloadHash = r.hash("payloadHash");
  const transactionsHash = r.hash("transactionsHash");
  const outputsHash = r.hash("outputsHash");
  r.finish();
  return { transactions, minerData, coinbase, transactionsHash, outputsHash, payloadHash };
}

/**
 * The output of transaction `index` of a binary PayloadWithOutputs, read without decoding the
 * rest (what `poll` needs of a block).
 */
export function outputOfPayloadBinary(bytes: Uint8Array, index: number): Uint8Array {
  const r = new Reader(bytes, "binary PayloadWithOutputs");
  const count = r.u64("the transaction count");
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new PayloadBinaryError(
      `binary PayloadWithOutputs has no transaction ${index} (${count})`,
    );
  }
  for (let i = 0; i < index; i++) {
    r.skipSized(`transaction ${i}`);
    r.skipSized(`output ${i}`);
  }
  r.skipSized(`transaction ${index}`);
  return r.sized(`output ${index}`);
}
