/**
 * Pact time values (pact-time `UTCTime`): UTC with microsecond resolution. pact-time counts
 * microseconds from the Modified Julian Day epoch in a wrapping 64-bit Int; the arithmetic here
 * wraps the same way, so even absurd `add-time` results match.
 */
import { Decimal } from "./decimal.ts";

export const MICROS_PER_SECOND = 1_000_000n;
export const MICROS_PER_DAY = 86_400_000_000n;
/** Microseconds from the MJD epoch (1858-11-17) to the Unix epoch (MJD 40587). */
export const UNIX_EPOCH_MJD_MICROS = 40_587n * MICROS_PER_DAY;

export class PactTime {
  /** Microseconds since 1970-01-01T00:00:00Z (negative before). */
  readonly micros: bigint;

  constructor(micros: bigint) {
    this.micros = micros;
  }

  /** From microseconds since the MJD epoch, wrapped to a 64-bit Int as pact-time stores it. */
  static fromMjdMicros(mjdMicros: bigint): PactTime {
    return new PactTime(BigInt.asIntN(64, mjdMicros) - UNIX_EPOCH_MJD_MICROS);
  }

  /** The current time (for default nonces and creation times). */
  static now(): PactTime {
    const micros = Math.round((performance.timeOrigin + performance.now()) * 1000);
    return new PactTime(BigInt(micros));
  }

  /** Microseconds since the MJD epoch. */
  get mjdMicros(): bigint {
    return this.micros + UNIX_EPOCH_MJD_MICROS;
  }

  compare(other: PactTime): number {
    return this.micros < other.micros ? -1 : this.micros > other.micros ? 1 : 0;
  }

  equals(other: PactTime): boolean {
    return this.micros === other.micros;
  }
}

/** Seconds (integer or decimal) as microseconds: ×10^6, banker's rounding, wrapped to Int64. */
export function secondsToMicros(seconds: bigint | Decimal): bigint {
  const micros =
    typeof seconds === "bigint"
      ? seconds * MICROS_PER_SECOND
      : seconds.mul(Decimal.fromInteger(MICROS_PER_SECOND)).toInteger("round");
  return BigInt.asIntN(64, micros);
}

/** `add-time`: the time plus a number of seconds (integer or decimal). */
export function addTime(t: PactTime, seconds: bigint | Decimal): PactTime {
  return PactTime.fromMjdMicros(t.mjdMicros + secondsToMicros(seconds));
}

/** `diff-time`: a − b in seconds, as a normalized decimal. */
export function diffTime(a: PactTime, b: PactTime): Decimal {
  return Decimal.fromRational(BigInt.asIntN(64, a.mjdMicros - b.mjdMicros), MICROS_PER_SECOND);
}

const SIXTY = Decimal.fromInteger(60n);
const TWENTY_FOUR = Decimal.fromInteger(24n);

function toDecimal(x: bigint | Decimal): Decimal {
  return typeof x === "bigint" ? Decimal.fromInteger(x) : x;
}

/** `minutes`: the number of seconds in x minutes, as a decimal. */
export function minutesToSeconds(x: bigint | Decimal): Decimal {
  return toDecimal(x).mul(SIXTY);
}

/** `hours`: the number of seconds in x hours, as a decimal. */
export function hoursToSeconds(x: bigint | Decimal): Decimal {
  if (typeof x === "bigint") return Decimal.fromInteger(x * 3600n);
  return x.mul(SIXTY).mul(SIXTY);
}

/** `days`: the number of seconds in x days, as a decimal. */
export function daysToSeconds(x: bigint | Decimal): Decimal {
  return toDecimal(x).mul(SIXTY).mul(SIXTY).mul(TWENTY_FOUR);
}
