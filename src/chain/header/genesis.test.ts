import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeBase64Url } from "../../crypto/index.ts";
import { merkleLeaf, merkleRoot } from "../merkle/tree.ts";
import { DEVELOPMENT, MAINNET01 } from "../version/known-versions.ts";
import { MAX_WORD256 } from "../word256.ts";
import { genesisHeader, genesisParentHash, isGenesisHeader } from "./genesis.ts";
import { computeBlockHash } from "./hash.ts";

const b64 = encodeBase64Url;

describe("genesis parent hash", () => {
  it("is the untagged root of the marker, version code and chain id", () => {
    const text = new TextEncoder().encode("CHAINWEB_GENESIS");
    assert.deepEqual(
      genesisParentHash(DEVELOPMENT, 3),
      merkleRoot([
        merkleLeaf(text),
        merkleLeaf(new Uint8Array([2, 0, 0, 0])),
        merkleLeaf(new Uint8Array([3, 0, 0, 0])),
      ]),
    );
  });
});

describe("development genesis headers", () => {
  it("reproduces the block hashes of chains 0, 1, 10 and 19", () => {
    assert.deepEqual(
      [0, 1, 10, 19].map((c) => b64(genesisHeader(DEVELOPMENT, c).hash)),
      [
        "sI6c8YyJ48Poan9J7F6-u9bRJ5Ss5XLZP3wa_jBLRi0",
        "elo5KOxfEQbkeTOlEeuWJTbcwviB-OTy3XNusP70JRc",
        "l2C-LfN88WlXgO7dcClceyLclkhv2ema4BbDTr6xpJw",
        "MG-LpqbsSeG8LTHrYIf_u6V7rVMh6meA7JX76N8shU0",
      ],
    );
  });
  it("carries the genesis payload hashes, time, target and neighbours", () => {
    const g0 = genesisHeader(DEVELOPMENT, 0);
    const g7 = genesisHeader(DEVELOPMENT, 7);
    assert.equal(b64(g0.payloadHash), "GB8YsdVgd50IaJ_shYGN3pnzOohPi-gE3YaP2pvhw0w");
    assert.equal(b64(g7.payloadHash), "tL8Um8Zql3uKtYX5yo9-YoW_cKGf_BFBONzVD5JDd5k");
    assert.equal(g7.creationTime, 1563388117613832);
    assert.equal(g7.epochStart, 1563388117613832);
    assert.equal(g7.target, MAX_WORD256 / 100000n);
    assert.equal(g7.height, 0);
    assert.deepEqual([...g7.adjacents.keys()], [2, 5, 9]);
    assert.deepEqual(g7.adjacents.get(5), genesisParentHash(DEVELOPMENT, 5));
    assert.deepEqual(g7.parent, genesisParentHash(DEVELOPMENT, 7));
    assert.deepEqual(computeBlockHash(g7), g7.hash);
    assert.equal(isGenesisHeader(DEVELOPMENT, g7), true);
  });
  it("computes each header once", () => {
    assert.equal(genesisHeader(DEVELOPMENT, 4), genesisHeader(DEVELOPMENT, 4));
  });
});

describe("mainnet genesis headers", () => {
  it("reproduces chainweb-node's golden genesis hashes", () => {
    assert.deepEqual(
      MAINNET01.genesis.payloadHashes.map((_, c) => b64(genesisHeader(MAINNET01, c).hash)),
      [
        "SNAMXHBvZtAbeS19x12bZV2p5d1E4BaxrggceNdUxbw",
        "aVFFqF8PbGu-MZkUhb1Ok4XijgxWUYxBxigBQgZmDFI",
        "Isgjp62lHk0uXgQfu_HZoeuP3udIiwkBlq1hHvXqXCM",
        "tMyy7k6lrQOsGg2oXh20kOC3zudjwsaL9F5Ogx0XNBo",
        "yeWKDE27xM45-LgdwpnVMM6E4pAoYryRrJJFgRiaKgQ",
        "GmCgnnxUtn08N8WtL8Gpn3Hg6AKyP4q0W0u3NLZn0Zo",
        "OXehM2W5YuiV0iWlDGIPMdaRv721zMUbj3caJqZJNBU",
        "CAfkqtRJpdf3rNSKx0SRwgaJlSUBLXwF1OMjn2-eBps",
        "09qk9ulwtq854ogJwlDZKN7NC_Q3lqiy1jdD0_YvWMI",
        "5cwptPDy7u6aMS221qsCr93g6ifDr0WUyvoKhi59-PA",
        "IQyS92QncmVLSPGiwn2taPayS42F5c3EjjL0DUr7keA",
        "G0NiGwj1bY2jYnpJ8aL4IJnsNeOLeb-7HD7AhFnrG_k",
        "OOKvNXgjfmcNzIlcIxAWKZuwEwjLS3Vod-mkhlCRCBY",
        "9PWw97t5czKEiK92LGFK9LkBToPB8A0AvPpoMmXLEoM",
        "55Z7RjqtyrZEoxUaZoB4aJIoA0j8ltkwcuAyprdXCng",
        "gd0FXTl4xqWjybxo4iWcBSZVJ53jV0noteLVwqIh6jA",
        "ZEulY-ffmUaS4JevaWy113CRTch_-Iu2LVDB2nN2xTM",
        "7Dop3iLs0VfejT2a8z3OkTfmGeT-_Soxr33TGr-bGMI",
        "nxSSt7WSfUaxQMmYIjdaoU-EgUHxYUtF449T3K2_Iw0",
        "y76dr78dPJlFDMPzCc-aEz97iRyimv5Ij3psdVlC64c",
      ],
    );
  });
  it("starts chains 10–19 at height 852054 with twenty-chain neighbours", () => {
    const g10 = genesisHeader(MAINNET01, 10);
    assert.equal(g10.height, 852054);
    assert.deepEqual([...g10.adjacents.keys()], [0, 11, 19]);
    assert.equal(genesisHeader(MAINNET01, 9).height, 0);
    assert.deepEqual([...genesisHeader(MAINNET01, 0).adjacents.keys()], [2, 3, 5]);
  });
});
