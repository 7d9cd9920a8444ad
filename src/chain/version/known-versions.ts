/**
 * The network versions Braid knows, as data. `development` is Braid's default network;
 * `mainnet01` is here so real mainnet headers decode, hash and name their version.
 * Facts: `../shared/reference/chainweb-wire.md` §2 (constants) and §7 (genesis payload hashes).
 */
import { PETERSEN_GRAPH, TWENTY_CHAIN_GRAPH } from "../graph/known-graphs.ts";
import { MAX_WORD256 } from "../word256.ts";
import { type ChainwebVersion, ChainwebVersionError } from "./version.ts";

const BLOCK_DELAY_MICROS = 30_000_000;
const WINDOW_WIDTH = 120;

const chains = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Braid's development network: twenty chains from genesis, no proof of work. */
export const DEVELOPMENT: ChainwebVersion = Object.freeze({
  name: "development",
  code: 0x02,
  graphs: [{ fromHeight: 0, graph: TWENTY_CHAIN_GRAPH }],
  blockDelayMicros: BLOCK_DELAY_MICROS,
  windowWidth: WINDOW_WIDTH,
  genesis: {
    timeMicros: 1_563_388_117_613_832, // 2019-07-17T18:28:37.613832Z
    targets: chains(0, 19).map(() => MAX_WORD256 / 100_000n),
    payloadHashes: chains(0, 19).map((c) =>
      c === 0
        ? "GB8YsdVgd50IaJ_shYGN3pnzOohPi-gE3YaP2pvhw0w"
        : "tL8Um8Zql3uKtYX5yo9-YoW_cKGf_BFBONzVD5JDd5k",
    ),
  },
  cheats: { disablePow: true, fakeFirstEpochStart: true },
  verifierPlugins: [{ fromHeight: 0, names: ["hyperlane_v3_message", "allow", "signed_list"] }],
  forkNumber: 0,
  ruleHeights: { currentDifficultyAdjustment: 0, featureFlagValidation: 0 },
});

/** Kadena's mainnet: the Petersen graph, then twenty chains from height 852054. */
export const MAINNET01: ChainwebVersion = Object.freeze({
  name: "mainnet01",
  code: 0x05,
  graphs: [
    { fromHeight: 0, graph: PETERSEN_GRAPH },
    { fromHeight: 852_054, graph: TWENTY_CHAIN_GRAPH },
  ],
  blockDelayMicros: BLOCK_DELAY_MICROS,
  windowWidth: WINDOW_WIDTH,
  genesis: {
    timeMicros: 1_572_393_660_000_000, // 2019-10-30T00:01:00Z
    targets: chains(0, 19).map((c) =>
      c < 10 ? MAX_WORD256 : 0x000000000000cb73de4be95ba21db5b9178dd85974c194e3ee05717dd8afa830n,
    ),
    payloadHashes: [
      "k1H3DsInAPvJ0W_zPxnrpkeSNdPUT0S9U8bqDLG739o",
      "kClp_Tw7keCLXMfaCyjH-gToAGmLvRQqiNRmhWUCbxs",
      "4DVp1dkSLYkFD0zbFF7e5Ba0ezKmnZhEVzlc5ZqqAT0",
      "fCHKOS9SF9G3Gy5iGZnOmQxjGYf32yM8PklrcBD_dmQ",
      "cTZ_29TkjXDlG_GlW8iB-va3mofpt_UjthLcOoqtlaQ",
      "MS_wu92H4GVPCziB6g8rOAc3x2uyegXH4Yl_0TfpI7U",
      "DVs3k9omI_WHMOJ8tUZ1Bt9Q1DdNmqC3V51iZDGmWwM",
      "Faa4TQZGFkFumLfHnMIJBAu_PSmGY4F-YraLVFrxr7Y",
      "YWgbJ4K5VET4WnG3H0Y0HPgzZ_qSnTgqxyB1kpMLJTQ",
      "w_6Spsw-jdCi9hBTlM6v0C1P7XoglU_AqNG9rcOwAZ0",
      ...chains(10, 19).map(() => "i-MN4AoxsaPds4M_MzwNSUygAkGnPZoCDvahfckowt4"),
    ],
  },
  cheats: { disablePow: false, fakeFirstEpochStart: false },
  verifierPlugins: [
    { fromHeight: 0, names: [] },
    // Below Chainweb 2.25 (height 5,060,924) this plugin ran older rules that Braid does not
    // implement; Braid does not execute mainnet blocks.
    { fromHeight: 4_577_530, names: ["hyperlane_v3_message"] },
  ],
  forkNumber: 0,
  ruleHeights: { currentDifficultyAdjustment: 771_414, featureFlagValidation: 530_500 },
});

/** The versions looked up by name or code when no other list is given. */
export const KNOWN_VERSIONS: readonly ChainwebVersion[] = Object.freeze([DEVELOPMENT, MAINNET01]);

export function findVersionByName(
  name: string,
  versions: readonly ChainwebVersion[] = KNOWN_VERSIONS,
): ChainwebVersion {
  const found = versions.find((v) => v.name === name);
  if (found === undefined) {
    throw new ChainwebVersionError(
      `unknown chainweb version ${JSON.stringify(name)} (known: ${versions.map((v) => v.name).join(", ")})`,
    );
  }
  return found;
}

export function findVersionByCode(
  code: number,
  versions: readonly ChainwebVersion[] = KNOWN_VERSIONS,
): ChainwebVersion {
  const found = versions.find((v) => v.code === code);
  if (found === undefined) {
    throw new ChainwebVersionError(
      `unknown chainweb version code 0x${code.toString(16).padStart(8, "0")} (known: ${versions.map((v) => `${v.name}=0x${v.code.toString(16).padStart(8, "0")}`).join(", ")})`,
    );
  }
  return found;
}
