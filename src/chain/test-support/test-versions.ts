/**
 * Network versions for tests, as data: a small window (epochs of 2 blocks up to height 20, then 20),
 * real proof of work at an easy target, and a graph change like mainnet's.
 */
import { PETERSEN_GRAPH, TWENTY_CHAIN_GRAPH } from "../graph/known-graphs.ts";
import type { ChainwebVersion } from "../version/version.ts";
import { MAX_WORD256 } from "../word256.ts";

const SOME_PAYLOAD_HASH = "tL8Um8Zql3uKtYX5yo9-YoW_cKGf_BFBONzVD5JDd5k";

/** Petersen graph until height 6, twenty chains after; PoW at about 1 in 64 nonces. */
export const TRANSITION_TEST_VERSION: ChainwebVersion = Object.freeze({
  name: "braid-transition-test",
  code: 0x8000_0001,
  graphs: [
    { fromHeight: 0, graph: PETERSEN_GRAPH },
    { fromHeight: 6, graph: TWENTY_CHAIN_GRAPH },
  ],
  blockDelayMicros: 30_000_000,
  windowWidth: 20,
  genesis: {
    timeMicros: 1_700_000_000_000_000,
    targets: Array.from({ length: 20 }, () => MAX_WORD256 >> 6n),
    payloadHashes: Array.from({ length: 20 }, () => SOME_PAYLOAD_HASH),
  },
  cheats: { disablePow: false, fakeFirstEpochStart: false },
  verifierPlugins: [],
  forkNumber: 0,
  ruleHeights: { currentDifficultyAdjustment: 0, featureFlagValidation: 0 },
});
