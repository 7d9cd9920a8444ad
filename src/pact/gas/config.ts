/**
 * The constants of Pact 5's table gas model (its `GasCostConfig`), in milligas: 1 gas = 1000
 * milligas. The table model prices work with these; the free model uses the same formulas with
 * every constant set to 1 (as Pact's `freeGasCostConfig` does), which only matters when a gas
 * limit is set while the free model is on.
 */

/** Milligas in one unit of gas. */
export const MILLIGAS_PER_GAS = 1000;

export interface GasCostConfig {
  /** The flat cost of most natives. */
  readonly nativeBasicWork: number;
  /** Per argument of a user function application (plus {@link APPLY_LAMBDA_BASE}). */
  readonly functionArgumentCost: number;
  /** One step of runtime type checking (per list element, object field, schema field). */
  readonly machineTickCost: number;
  /** One list element taken by `map`, `fold`, `filter`, `zip`, `enforce-one`, and `try`. */
  readonly unconsWork: number;
  /** Flat cost of reading a user table row (`read`, `with-read`, `with-default-read`). */
  readonly readPenalty: number;
  /** Flat cost of writing a row (`insert`, `write`, `update`). */
  readonly writePenalty: number;
  /** Flat cost of metadata natives (`describe-*`, `list-modules`). */
  readonly metadataTxPenalty: number;
  /** Flat cost of `select`, `keys`, `fold-db`. */
  readonly selectPenalty: number;
  /** Per character or element built by concatenation, and per element of a list/object literal. */
  readonly concatFactor: number;
  /** Per byte (Pact's size estimate) written to the database. */
  readonly perByteWriteCost: number;
  /** Per byte (Pact's size estimate) read from the database. */
  readonly perByteReadCost: number;
  /** `sort` charges size·n²/this. */
  readonly sortBytePenaltyReduction: number;
  readonly poseidonQuadraticGasFactor: number;
  readonly poseidonLinearGasFactor: number;
  /** Loading a module of b bytes costs b/slope + intercept. */
  readonly moduleLoadSlope: number;
  readonly moduleLoadIntercept: number;
  /** Per byte of a module being deployed (its desugaring). */
  readonly desugarBytePenalty: number;
  /** Per byte hashed with Blake2b (`hash`, module hashes, principals). */
  readonly mhashBytePenalty: number;
  /** Per byte counted by a size estimate that runs past the gas left. */
  readonly sizeOfBytePenalty: number;
  readonly keccak256GasPerOneHundredBytes: number;
  readonly keccak256GasPerChunk: number;
}

/** Pact 5's `tableGasCostConfig`. */
export const TABLE_GAS_CONFIG: GasCostConfig = Object.freeze({
  nativeBasicWork: 100,
  functionArgumentCost: 25,
  machineTickCost: 25,
  unconsWork: 100,
  readPenalty: 2_500,
  writePenalty: 25_000,
  metadataTxPenalty: 100_000,
  selectPenalty: 40_000_000,
  concatFactor: 100,
  perByteWriteCost: 200,
  perByteReadCost: 100,
  sortBytePenaltyReduction: 1000,
  poseidonQuadraticGasFactor: 50_000,
  poseidonLinearGasFactor: 38_000,
  moduleLoadSlope: 200,
  moduleLoadIntercept: 10,
  desugarBytePenalty: 400,
  mhashBytePenalty: 100,
  sizeOfBytePenalty: 5,
  keccak256GasPerOneHundredBytes: 146,
  keccak256GasPerChunk: 2_120,
});

/** Pact 5's `freeGasCostConfig`: every constant is 1. */
export const FREE_GAS_CONFIG: GasCostConfig = Object.freeze({
  nativeBasicWork: 1,
  functionArgumentCost: 1,
  machineTickCost: 1,
  unconsWork: 1,
  readPenalty: 1,
  writePenalty: 1,
  metadataTxPenalty: 1,
  selectPenalty: 1,
  concatFactor: 1,
  perByteWriteCost: 1,
  perByteReadCost: 1,
  sortBytePenaltyReduction: 1,
  poseidonQuadraticGasFactor: 1,
  poseidonLinearGasFactor: 1,
  moduleLoadSlope: 1,
  moduleLoadIntercept: 1,
  desugarBytePenalty: 1,
  mhashBytePenalty: 1,
  sizeOfBytePenalty: 1,
  keccak256GasPerOneHundredBytes: 1,
  keccak256GasPerChunk: 1,
});

/** The fixed part of a function application's cost (on top of the per-argument cost). */
export const APPLY_LAMBDA_BASE = 50;
