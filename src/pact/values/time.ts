/** Pact time values: UTC, microsecond resolution. Work in progress: representation first. */
export class PactTime {
  /** Microseconds since 1970-01-01T00:00:00Z (negative before). */
  readonly micros: bigint;

  constructor(micros: bigint) {
    this.micros = micros;
  }
}
