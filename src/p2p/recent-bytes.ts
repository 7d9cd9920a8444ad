/**
 * Bytes counted over a sliding interval (the bytes a peer sent within the last
 * `PEER_BYTES_INTERVAL_MS`), kept in {@link RECENT_BYTES_SLICES} slices of the interval. A window
 * restarting at fixed times let a burst that straddled a restart be counted half in each, so a
 * peer answering without end got up to twice the bound read before it was cut off (202 and 235 MB
 * of 128 MiB measured).
 */

/**
 * The slices an interval is kept in: what is counted was read within the last nine tenths to the
 * whole of the interval.
 */
export const RECENT_BYTES_SLICES = 10;

export class RecentBytes {
  private readonly slices: number[] = new Array<number>(RECENT_BYTES_SLICES).fill(0);
  /** The number of the latest slice counted into (the time, in slices). */
  private latest = 0;

  constructor(private readonly intervalMs: number) {}

  /** Counts `bytes` read at `now` (ms, never earlier than before); the total within the interval. */
  add(bytes: number, now: number): number {
    const slice = Math.floor((now * RECENT_BYTES_SLICES) / this.intervalMs);
    // The slices that ended more than an interval ago are emptied for reuse.
    const passed = Math.min(RECENT_BYTES_SLICES, slice - this.latest);
    for (let i = 1; i <= passed; i++) this.slices[(this.latest + i) % RECENT_BYTES_SLICES] = 0;
    this.latest = Math.max(this.latest, slice);
    this.slices[this.latest % RECENT_BYTES_SLICES]! += bytes;
    return this.slices.reduce((a, b) => a + b, 0);
  }
}
