/**
 * A small seeded pseudo-random generator (SplitMix32-style) for property tests and benchmarks:
 * the same seed gives the same sequence on every run, so a failure can be replayed.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    this.state = (this.state + 0x9e3779b9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** A uniform integer in [0, bound), bound ≤ 2^32. */
  int(bound: number): number {
    return Math.floor((this.u32() / 2 ** 32) * bound);
  }

  /** A uniform integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) out[i] = this.u32() & 0xff;
    return out;
  }

  /** A uniform unsigned integer of `bits` bits. */
  bigint(bits: number): bigint {
    let value = 0n;
    for (let i = 0; i < bits; i += 32) value = (value << 32n) | BigInt(this.u32());
    return value & ((1n << BigInt(bits)) - 1n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}
