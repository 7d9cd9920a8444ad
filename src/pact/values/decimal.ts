/**
 * Pact decimals (Haskell `Data.Decimal`): an unbounded integer mantissa scaled by 10^-places,
 * with 0..255 places. Work in progress: core representation first.
 */

/** The most decimal places a Pact decimal can carry (Data.Decimal stores places in a Word8). */
export const MAX_DECIMAL_PLACES = 255;

export class Decimal {
  readonly mantissa: bigint;
  readonly places: number;

  constructor(mantissa: bigint, places: number) {
    if (!Number.isInteger(places) || places < 0 || places > MAX_DECIMAL_PLACES) {
      throw new RangeError(`decimal places out of range 0..${MAX_DECIMAL_PLACES}: ${places}`);
    }
    this.mantissa = mantissa;
    this.places = places;
  }
}
