/**
 * The node's clock: the system clock moved forward by a development offset (`braid dev time`).
 * Block creation times, the mempool's time-to-live and creation-time checks and `local`'s
 * preflight all read it, so moving it forward makes the whole node live in the later time. It
 * never goes backwards: the offset only grows, it is kept in the chain database across
 * restarts, and a floor (the newest block time ever made, after a revert) bounds it from below.
 */

/** Where the offset is kept (a chain database setting). */
export const CLOCK_OFFSET_SETTING = "clock-offset-micros";

/** The furthest the clock may be moved forward in total: ten years. */
export const MAX_CLOCK_OFFSET_SECONDS = 10 * 365 * 86_400;

/** The settings store the offset lives in (the chain database). */
export interface SettingsStore {
  setting(key: string): string | undefined;
  saveSetting(key: string, value: string): void;
}

export class NodeClock {
  private offsetMicros: number;
  private floorMicros = 0;

  constructor(
    private readonly store: SettingsStore,
    private readonly systemMicros: () => number = () => Date.now() * 1000,
  ) {
    this.offsetMicros = Number(store.setting(CLOCK_OFFSET_SETTING) ?? "0");
  }

  /** Microseconds since the UNIX epoch. */
  nowMicros(): number {
    return Math.max(this.systemMicros() + this.offsetMicros, this.floorMicros);
  }

  /** Seconds since the UNIX epoch (fractions included). */
  nowSeconds(): number {
    return this.nowMicros() / 1_000_000;
  }

  /** How far ahead of the system clock the node's clock runs, in whole seconds. */
  get offsetSeconds(): number {
    return Math.floor(this.offsetMicros / 1_000_000);
  }

  /**
   * Moves the clock forward by `seconds` (a positive integer; the total offset at most
   * {@link MAX_CLOCK_OFFSET_SECONDS}) and keeps the new offset. Throws a RangeError otherwise.
   */
  advance(seconds: number): void {
    if (!Number.isSafeInteger(seconds) || seconds <= 0) {
      throw new RangeError(
        `time moves forward only: seconds must be a positive integer, got ${seconds}`,
      );
    }
    if (this.offsetSeconds + seconds > MAX_CLOCK_OFFSET_SECONDS) {
      throw new RangeError(
        `the clock may run at most ${MAX_CLOCK_OFFSET_SECONDS} s (ten years) ahead; it is ${this.offsetSeconds} s ahead now`,
      );
    }
    this.offsetMicros += seconds * 1_000_000;
    this.store.saveSetting(CLOCK_OFFSET_SETTING, String(this.offsetMicros));
  }

  /** The clock reads at least `micros` from now on (a time already used by a block). */
  notBefore(micros: number): void {
    this.floorMicros = Math.max(this.floorMicros, micros);
  }
}
