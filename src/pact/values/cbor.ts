/**
 * A CBOR writer producing the exact bytes of Haskell's `cborg` encoder (`Codec.CBOR.Write`), the
 * encoder behind the `serialise` package that Pact uses to hash modules and to store values:
 *
 * - every head (integers, lengths, tags) uses the shortest form RFC 8949 allows;
 * - integers that fit in 64 bits are plain major type 0/1; larger ones are bignums (tag 2 or 3
 *   over the big-endian magnitude, without leading zero bytes);
 * - text is a definite-length UTF-8 string;
 * - `serialise` writes a non-empty Haskell list as an indefinite-length array closed by a break,
 *   an empty one as `[]` (see {@link CborWriter.list}); vectors, sets and maps have definite lengths.
 */

/** The first buffer size; it doubles as needed. */
export const CBOR_INITIAL_CAPACITY = 1024;

const MAJOR_UNSIGNED = 0;
const MAJOR_NEGATIVE = 1;
const MAJOR_BYTES = 2;
const MAJOR_TEXT = 3;
const MAJOR_ARRAY = 4;
const MAJOR_MAP = 5;
const MAJOR_TAG = 6;

const TAG_POSITIVE_BIGNUM = 2;
const TAG_NEGATIVE_BIGNUM = 3;

const FALSE = 0xf4;
const TRUE = 0xf5;
const NULL = 0xf6;
const INDEFINITE_ARRAY = 0x9f;
const BREAK = 0xff;

const MAX_UINT64 = (1n << 64n) - 1n;

const utf8 = new TextEncoder();

/** Spare working buffers kept at most, and the largest kept (a writer may have grown its own). */
const MAX_SPARE_BUFFERS = 4;
const MAX_SPARE_BUFFER_BYTES = 64 * 1024;

/**
 * The working buffers of writers whose bytes were taken, for the next writers: every value the
 * node stores or logs is written through a writer, two or three of them for each row a block
 * writes, and allocating a buffer costs microseconds on a loaded machine. A writer that throws
 * before its bytes are taken keeps its buffer, which then goes with it.
 */
const spareBuffers: Uint8Array[] = [];

/** Written into by a writer whose bytes were taken: any write or second take is a mistake. */
const TAKEN = new Uint8Array(0);

/**
 * A buffer to write into: a spare one, else below Node's pool limit (4 KiB) a piece of Node's
 * shared buffer pool, cheaper than an array buffer of its own. Only `bytes()`, a copy, leaves it.
 */
function workingBuffer(size: number): Uint8Array {
  const last = spareBuffers.length - 1;
  if (last >= 0 && spareBuffers[last]!.length >= size) return spareBuffers.pop()!;
  const pooled = Buffer.allocUnsafe(size);
  return new Uint8Array(pooled.buffer, pooled.byteOffset, size);
}

function viewOf(buffer: Uint8Array): DataView {
  return new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

export class CborWriter {
  private buffer = workingBuffer(CBOR_INITIAL_CAPACITY);
  private view = viewOf(this.buffer);
  private length = 0;

  /**
   * The bytes written (a copy). Taken once: the writer's buffer then goes to the next writer, and
   * writing on throws.
   */
  bytes(): Uint8Array {
    const buffer = this.buffer;
    if (buffer === TAKEN) throw new Error("a CBOR writer's bytes were already taken");
    const out = buffer.slice(0, this.length);
    this.buffer = TAKEN;
    this.length = 0;
    if (spareBuffers.length < MAX_SPARE_BUFFERS && buffer.length <= MAX_SPARE_BUFFER_BYTES) {
      spareBuffers.push(buffer);
    }
    return out;
  }

  /** `encodeWord`: an unsigned integer (a constructor tag, a de Bruijn index, a builtin index). */
  word(n: number): this {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a CBOR word: ${n}`);
    this.head(MAJOR_UNSIGNED, n);
    return this;
  }

  /** `encodeInt` / `encodeInteger`: any integer, as a bignum beyond 64 bits. */
  integer(n: bigint | number): this {
    const v = typeof n === "bigint" ? n : BigInt(n);
    if (v >= 0n) {
      if (v <= MAX_UINT64) this.bigHead(MAJOR_UNSIGNED, v);
      else this.bignum(TAG_POSITIVE_BIGNUM, v);
    } else {
      const magnitude = -1n - v;
      if (magnitude <= MAX_UINT64) this.bigHead(MAJOR_NEGATIVE, magnitude);
      else this.bignum(TAG_NEGATIVE_BIGNUM, magnitude);
    }
    return this;
  }

  /** `encodeListLen`: the head of a definite-length array (a constructor, a tuple, a vector). */
  listLen(n: number): this {
    this.head(MAJOR_ARRAY, n);
    return this;
  }

  /** `encodeMapLen`: the head of a definite-length map. */
  mapLen(n: number): this {
    this.head(MAJOR_MAP, n);
    return this;
  }

  /**
   * A Haskell list as `serialise` writes it: `[]` for an empty list, otherwise an
   * indefinite-length array of the items closed by a break.
   */
  list<T>(items: readonly T[], item: (w: this, x: T) => void): this {
    if (items.length === 0) return this.listLen(0);
    this.byte(INDEFINITE_ARRAY);
    for (const x of items) item(this, x);
    this.byte(BREAK);
    return this;
  }

  /** A Haskell `Maybe`: `[]` for `Nothing`, a one-element array for `Just`. */
  maybe<T>(value: T | null, item: (w: this, x: T) => void): this {
    if (value === null) return this.listLen(0);
    this.listLen(1);
    item(this, value);
    return this;
  }

  text(s: string): this {
    // A UTF-8 string is at most three bytes per UTF-16 unit.
    this.ensure(9 + s.length * 3);
    const start = this.length;
    this.head(MAJOR_TEXT, 0); // placeholder, rewritten below when the length needs more room
    const headSize = this.length - start;
    const written = utf8.encodeInto(s, this.buffer.subarray(this.length)).written;
    const needed = headLength(written);
    if (needed !== headSize) {
      this.buffer.copyWithin(start + needed, start + headSize, start + headSize + written);
    }
    this.length = start;
    this.head(MAJOR_TEXT, written);
    this.length += written;
    return this;
  }

  byteString(b: Uint8Array): this {
    this.head(MAJOR_BYTES, b.length);
    this.ensure(b.length);
    this.buffer.set(b, this.length);
    this.length += b.length;
    return this;
  }

  bool(b: boolean): this {
    return this.byte(b ? TRUE : FALSE);
  }

  /** `encodeNull`, which `serialise` writes for `()`. */
  null(): this {
    return this.byte(NULL);
  }

  private byte(b: number): this {
    this.ensure(1);
    this.buffer[this.length++] = b;
    return this;
  }

  private head(major: number, n: number): void {
    if (n > 0xffffffff) {
      this.bigHead(major, BigInt(n));
      return;
    }
    this.ensure(5);
    const m = major << 5;
    if (n < 24) {
      this.buffer[this.length++] = m | n;
    } else if (n <= 0xff) {
      this.buffer[this.length++] = m | 24;
      this.buffer[this.length++] = n;
    } else if (n <= 0xffff) {
      this.buffer[this.length++] = m | 25;
      this.view.setUint16(this.length, n);
      this.length += 2;
    } else {
      this.buffer[this.length++] = m | 26;
      this.view.setUint32(this.length, n);
      this.length += 4;
    }
  }

  private bigHead(major: number, n: bigint): void {
    if (n <= 0xffffffffn) {
      this.head(major, Number(n));
      return;
    }
    this.ensure(9);
    this.buffer[this.length++] = (major << 5) | 27;
    this.view.setBigUint64(this.length, n);
    this.length += 8;
  }

  private bignum(tag: number, magnitude: bigint): void {
    this.head(MAJOR_TAG, tag);
    let hex = magnitude.toString(16);
    if (hex.length % 2 === 1) hex = `0${hex}`;
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    this.byteString(out);
  }

  private ensure(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.buffer.length) return;
    if (this.buffer === TAKEN) throw new Error("a CBOR writer written after its bytes were taken");
    let size = this.buffer.length * 2;
    while (size < needed) size *= 2;
    const next = workingBuffer(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
    this.view = viewOf(next);
  }
}

/** Bytes of a head carrying `n` (n < 2^32). */
function headLength(n: number): number {
  return n < 24 ? 1 : n <= 0xff ? 2 : n <= 0xffff ? 3 : 5;
}
