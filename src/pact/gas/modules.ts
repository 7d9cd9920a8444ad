/**
 * Module gas: loading a stored module the first time a transaction uses it (Pact's
 * `MOpLoadModule`: bytes/200 + 10, by the size of the stored module). Pact measures its CBOR
 * encoding of the compiled module; the size here is the module's source text in UTF-8, which the
 * stored form is made of, so loads cost less than in Pact (see docs/gas.md).
 */
import { moduleLoadCost } from "./costs.ts";
import type { GasMeter, PactGasMeter } from "./meter.ts";

/** A module read from storage whose source text is `code`. */
export function chargeModuleLoad(gas: GasMeter, code: string): void {
  if (gas.charging !== true) return;
  const meter = gas as PactGasMeter;
  meter.charge(
    moduleLoadCost(meter.config, Buffer.byteLength(code, "utf8")),
    "GModuleOp MOpLoadModule",
  );
}
