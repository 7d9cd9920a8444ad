/**
 * The gas meters the evaluator uses (defined with the cost model in src/pact/gas). The evaluator
 * charges every native call and function application through the meter in its environment.
 */
export {
  FreeGasMeter,
  type GasMeter,
  LimitedGasMeter,
  MILLIGAS_PER_GAS,
  PactGasMeter,
} from "../gas/index.ts";
