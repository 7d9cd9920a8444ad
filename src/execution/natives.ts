/** The natives commands run with: the interpreter's on-chain set. */
export { ON_CHAIN_NATIVES } from "../pact/index.ts";
