/**
 * Charges the state natives make as they read and write (Pact's `GRead`/`GWrite` of the size
 * estimate of what is read or written). Each takes the environment's meter and does nothing unless
 * it is charging, so natives call them unconditionally.
 */
import type { Guard, KeySet, PactObject } from "../values/types.ts";
import { readCost, writeCost } from "./costs.ts";
import type { GasMeter, PactGasMeter } from "./meter.ts";
import { keysetStoredSize, namespaceSize, objectSize, textSize } from "./size-of.ts";

/** A namespace as stored: its name and its two guards. */
interface NamespaceLike {
  readonly name: string;
  readonly user: Guard;
  readonly admin: Guard;
}

function pricing(gas: GasMeter): PactGasMeter | null {
  return gas.charging === true ? (gas as PactGasMeter) : null;
}

function read(meter: PactGasMeter, bytes: number): void {
  meter.checkSize(bytes);
  meter.charge(readCost(meter.config, bytes), "GRead");
}

function write(meter: PactGasMeter, bytes: number): void {
  meter.checkSize(bytes);
  meter.charge(writeCost(meter.config, bytes), "GWrite");
}

/** A user table row read by `read`, `with-read` or `with-default-read` (the whole row). */
export function chargeRowRead(gas: GasMeter, row: PactObject): void {
  const meter = pricing(gas);
  if (meter !== null) read(meter, objectSize(row));
}

/** A keyset written by `define-keyset`. */
export function chargeKeysetWrite(gas: GasMeter, ks: KeySet): void {
  const meter = pricing(gas);
  if (meter !== null) write(meter, keysetStoredSize(ks));
}

/** Looking a namespace up by name (charged before the lookup, found or not). */
export function chargeNamespaceLookup(gas: GasMeter, name: string): void {
  const meter = pricing(gas);
  if (meter !== null) meter.charge(readCost(meter.config, name.length), "GRead");
}

/** A namespace record read. */
export function chargeNamespaceRead(gas: GasMeter, ns: NamespaceLike): void {
  const meter = pricing(gas);
  if (meter !== null) read(meter, namespaceSize(ns.name, ns.user, ns.admin));
}

/** A namespace record written by `define-namespace`. */
export function chargeNamespaceWrite(gas: GasMeter, ns: NamespaceLike): void {
  const meter = pricing(gas);
  if (meter !== null) write(meter, namespaceSize(ns.name, ns.user, ns.admin));
}

/** `static-redeploy` writing a module's source text again (the module data is deploy-gas.ts's). */
export function chargeModuleSourceWrite(gas: GasMeter, code: string): void {
  const meter = pricing(gas);
  if (meter !== null && code !== "") write(meter, textSize(code));
}
