/**
 * Module gas: what Pact 5 charges to deploy a module or interface and to load one from storage
 * (docs/gas.md, "Deploying modules").
 *
 * Deploying: desugaring (`MOpDesugarModule`, 400 per byte of the module's size estimate with its
 * source information erased and constants not yet evaluated), hashing (`GHash`, 100 per byte of
 * the same with constants evaluated), the transitive-dependency walk (`MOpFindTransitiveDep`, the
 * milligas the walk counted) and storing (`GWrite`, 200 per byte of the stored module data: the
 * module with its source information and real hash, and every definition of other modules it
 * depends on). The sizes come from src/pact/compile/module-hash/sizes.ts; the walk from
 * src/pact/compile/module-hash/dependencies.ts.
 *
 * Loading a module read from storage (`MOpLoadModule`, bytes / 200 + 10 of its stored encoding)
 * and merging its definitions and dependencies into those the transaction has loaded
 * (`MOpMergeDeps`, 10 per pair).
 */
import { mergeDepsCost, moduleLoadCost, saturate, writeCost } from "./costs.ts";
import type { GasMeter, PactGasMeter } from "./meter.ts";

/**
 * How the stored form represents source information and builtins, which module sizes depend on.
 * On chain, Chainweb stores a `LineInfo` (one `Int`) per node and plain `CoreBuiltin`s; the REPL
 * stores a `FileLocSpanInfo` (its file name and a `SpanInfo` of four `Int`s, sized as the
 * `SpanInfo`) and wraps builtins in `ReplBuiltin`.
 */
export interface ModuleRepresentation {
  /** `SizeOf` one `info` field. */
  readonly infoBytes: number;
  /** `SizeOf` one builtin. */
  readonly builtinBytes: number;
  /** Estimated bytes of one `info` field in the stored CBOR of a module from `file`. */
  encodedInfoBytes(file: string): number;
}

/** A line number in CBOR: most are between 24 and 65,535 (a head and two bytes at most). */
const ENCODED_LINE_BYTES = 2;
/** `[file, [line, column, line, column]]`: two array heads and four numbers of 1–2 bytes. */
const ENCODED_SPAN_BYTES = 8;

/** Chainweb's: `LineInfo` (an `Int`: 1 + 4 bytes), `CoreBuiltin` (1 + 1). */
export const CHAIN_MODULE_REPRESENTATION: ModuleRepresentation = Object.freeze({
  infoBytes: 5,
  builtinBytes: 2,
  encodedInfoBytes: () => ENCODED_LINE_BYTES,
});

/** The REPL's: `FileLocSpanInfo` (a `SpanInfo`: 1 + 4 × 5 bytes), `ReplBuiltin CoreBuiltin` (2 + 2). */
export const REPL_MODULE_REPRESENTATION: ModuleRepresentation = Object.freeze({
  infoBytes: 21,
  builtinBytes: 4,
  encodedInfoBytes: (file: string) => {
    const bytes = Buffer.byteLength(file, "utf8");
    return ENCODED_SPAN_BYTES + (bytes < 24 ? 1 : bytes < 256 ? 2 : 3) + bytes;
  },
});

function pricing(gas: GasMeter): PactGasMeter | null {
  return gas.charging === true ? (gas as PactGasMeter) : null;
}

/** Desugaring and renaming a module or interface of `bytes` (its size estimate). */
export function chargeModuleDesugar(gas: GasMeter, bytes: number): void {
  const meter = pricing(gas);
  if (meter === null) return;
  meter.checkSize(bytes);
  meter.charge(saturate(bytes * meter.config.desugarBytePenalty), "GModuleOp (MOpDesugarModule)");
}

/** Hashing a module of `bytes`. */
export function chargeModuleHash(gas: GasMeter, bytes: number): void {
  const meter = pricing(gas);
  if (meter === null) return;
  meter.checkSize(bytes);
  meter.charge(saturate(bytes * meter.config.mhashBytePenalty), "GHash");
}

/** The transitive-dependency walk: the milligas it counted. */
export function chargeTransitiveDependencies(gas: GasMeter, milligas: number): void {
  const meter = pricing(gas);
  if (meter !== null) meter.charge(saturate(milligas), "GModuleOp (MOpFindTransitiveDep)");
}

/** Storing module data of `bytes`. */
export function chargeModuleWrite(gas: GasMeter, bytes: number): void {
  const meter = pricing(gas);
  if (meter === null) return;
  meter.checkSize(bytes);
  meter.charge(writeCost(meter.config, bytes), "GWrite");
}

/** A module read from storage whose stored encoding is `bytes` long. */
export function chargeModuleLoad(gas: GasMeter, bytes: number): void {
  const meter = pricing(gas);
  if (meter !== null) {
    meter.charge(moduleLoadCost(meter.config, bytes), "GModuleOp (MOpLoadModule)");
  }
}

/** Merging `added` definitions into the `loaded` ones of the transaction. */
export function chargeMergeDependencies(gas: GasMeter, loaded: number, added: number): void {
  const meter = pricing(gas);
  if (meter !== null) meter.charge(mergeDepsCost(loaded, added), "GModuleOp (MOpMergeDeps)");
}
