/**
 * Gas: Pact 5's table cost model in milligas — the constants, the cost formulas, the size
 * estimate, the meter, and the charges of natives and of the evaluator. See docs/gas.md.
 */
export {
  FREE_GAS_CONFIG,
  type GasCostConfig,
  MILLIGAS_PER_GAS,
  TABLE_GAS_CONFIG,
} from "./config.ts";
export {
  chargeKeysetWrite,
  chargeModuleSourceWrite,
  chargeNamespaceLookup,
  chargeNamespaceRead,
  chargeNamespaceWrite,
  chargeRowRead,
} from "./database.ts";
export {
  chargeApplication,
  chargeCall,
  chargeLiteral,
  chargeTypecheck,
  chargeUncons,
} from "./evaluator.ts";
export {
  FREE_GAS_MODEL,
  FreeGasMeter,
  type GasLogEntry,
  type GasMeter,
  type GasModel,
  LimitedGasMeter,
  milligasToGas,
  PactGasMeter,
  TABLE_GAS_MODEL,
} from "./meter.ts";
export {
  CHAIN_MODULE_REPRESENTATION,
  chargeMergeDependencies,
  chargeModuleDesugar,
  chargeModuleHash,
  chargeModuleLoad,
  chargeModuleWrite,
  chargeTransitiveDependencies,
  type ModuleRepresentation,
  REPL_MODULE_REPRESENTATION,
} from "./modules.ts";
export { chargedNativeCall } from "./natives.ts";
export {
  type ChargeRecorder,
  type GasFrameKind,
  type GasProfileFrame,
  GasProfiler,
} from "./profile.ts";
export { objectSize, sizeOf } from "./size-of.ts";
