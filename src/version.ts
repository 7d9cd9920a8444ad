/** Braid's own version, reported by `braid --version` and the node's version header. */
export const BRAID_VERSION = "0.1.0";
/** The Pact language version Braid's interpreter is compatible with (what `pact-version` returns). */
export const PACT_VERSION = "5.4";
