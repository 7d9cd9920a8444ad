/**
 * Module gas.
 *
 * Deploying: Pact charges desugaring (400 per byte) and hashing (100 per byte) of its size
 * estimate of the compiled module, and writing it (200 per byte, with source locations). Our
 * compiled form is not Pact's, so the size is estimated from the syntax tree: a fixed part and a
 * part per node, fitted to the deploy gas Pact 5's tests expect for its coin contracts (v1, v5),
 * a small test module, and its fungible interfaces (v1, v2, xchain); see docs/gas.md.
 *
 * Loading a stored module the first time a transaction uses it (Pact's `MOpLoadModule`:
 * bytes/200 + 10): Pact measures its CBOR encoding of the compiled module; the size here is the
 * module's source text in UTF-8, which the stored form is made of.
 */
import type { Interface, Module } from "../syntax/ast.ts";
import { moduleLoadCost, saturate } from "./costs.ts";
import type { GasMeter, PactGasMeter } from "./meter.ts";

/** Estimated bytes of a module beyond its nodes (name, governance, hashes). */
export const MODULE_BASE_BYTES = 141;
/** Estimated bytes per syntax node of a module. */
export const MODULE_NODE_BYTES = 24.16;
/** Estimated bytes of an interface beyond its nodes. */
export const INTERFACE_BASE_BYTES = 414;
/** Estimated bytes per syntax node of an interface (signatures only, no bodies). */
export const INTERFACE_NODE_BYTES = 8;

/** The syntax nodes (everything with a source span) in `form`. */
function countNodes(v: unknown): number {
  if (typeof v !== "object" || v === null) return 0;
  if (Array.isArray(v)) {
    let n = 0;
    for (const x of v) n += countNodes(x);
    return n;
  }
  let n = "span" in v ? 1 : 0;
  for (const [k, x] of Object.entries(v)) if (k !== "span") n += countNodes(x);
  return n;
}

/** Pact's estimate of a deployed module's size, approximated from its syntax tree. */
export function deployedSize(form: Module | Interface): number {
  const nodes = countNodes(form);
  return form.kind === "module"
    ? MODULE_BASE_BYTES + MODULE_NODE_BYTES * nodes
    : INTERFACE_BASE_BYTES + INTERFACE_NODE_BYTES * nodes;
}

/** Deploying (defining or upgrading) a module or interface. */
export function chargeModuleDeploy(gas: GasMeter, form: Module | Interface): void {
  if (gas.charging !== true) return;
  const meter = gas as PactGasMeter;
  const cfg = meter.config;
  const bytes = deployedSize(form);
  const perByte = cfg.desugarBytePenalty + cfg.mhashBytePenalty + cfg.perByteWriteCost;
  meter.charge(saturate(Math.round(bytes * perByte)), "GModuleOp MOpDesugarModule, GHash, GWrite");
}

/** A module read from storage whose source text is `code`. */
export function chargeModuleLoad(gas: GasMeter, code: string): void {
  if (gas.charging !== true) return;
  const meter = gas as PactGasMeter;
  meter.charge(
    moduleLoadCost(meter.config, Buffer.byteLength(code, "utf8")),
    "GModuleOp MOpLoadModule",
  );
}
