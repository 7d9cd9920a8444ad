import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PETERSEN_GRAPH, TWENTY_CHAIN_GRAPH } from "../graph/known-graphs.ts";
import {
  DEVELOPMENT,
  findVersionByCode,
  findVersionByName,
  KNOWN_VERSIONS,
  MAINNET01,
} from "./known-versions.ts";
import {
  allChainIds,
  ChainwebVersionError,
  genesisHeight,
  graphAt,
  graphForHeader,
} from "./version.ts";

describe("network versions", () => {
  it("holds the development constants", () => {
    assert.equal(DEVELOPMENT.code, 0x02);
    assert.equal(DEVELOPMENT.blockDelayMicros, 30_000_000);
    assert.equal(DEVELOPMENT.windowWidth, 120);
    assert.equal(
      DEVELOPMENT.genesis.targets[19]!.toString(16).padStart(64, "0"),
      "0000a7c5ac471b4784230fcf80dc33721d53cddd6e04c059210385c67dfe32a0",
    );
    assert.deepEqual(DEVELOPMENT.cheats, { disablePow: true, fakeFirstEpochStart: true });
    assert.equal(graphAt(DEVELOPMENT, 5_000_000), TWENTY_CHAIN_GRAPH);
  });
  it("switches mainnet from Petersen to twenty chains at 852054", () => {
    assert.equal(graphAt(MAINNET01, 852053), PETERSEN_GRAPH);
    assert.equal(graphAt(MAINNET01, 852054), TWENTY_CHAIN_GRAPH);
    // A block at 852054 is braided by its parent's graph; a new chain's genesis by its own.
    assert.equal(graphForHeader(MAINNET01, 0, 852054), PETERSEN_GRAPH);
    assert.equal(graphForHeader(MAINNET01, 0, 852055), TWENTY_CHAIN_GRAPH);
    assert.equal(graphForHeader(MAINNET01, 10, 852054), TWENTY_CHAIN_GRAPH);
    assert.equal(allChainIds(MAINNET01).length, 20);
  });
  it("finds genesis heights", () => {
    assert.equal(genesisHeight(MAINNET01, 9), 0);
    assert.equal(genesisHeight(MAINNET01, 10), 852054);
    assert.equal(genesisHeight(MAINNET01, 19), 852054);
    assert.equal(genesisHeight(DEVELOPMENT, 19), 0);
    assert.throws(
      () => genesisHeight(DEVELOPMENT, 20),
      (e: unknown) =>
        e instanceof ChainwebVersionError &&
        e.message === "chain 20 does not exist in version development",
    );
  });
  it("finds versions by name and code, naming the known ones when not found", () => {
    assert.equal(findVersionByName("mainnet01"), MAINNET01);
    assert.equal(findVersionByCode(2), DEVELOPMENT);
    assert.deepEqual(
      KNOWN_VERSIONS.map((v) => v.name),
      ["development", "mainnet01"],
    );
    assert.throws(
      () => findVersionByName("testnet04"),
      /unknown chainweb version "testnet04" \(known: development, mainnet01\)/,
    );
    assert.throws(
      () => findVersionByCode(7),
      /unknown chainweb version code 0x00000007 \(known: development=0x00000002, mainnet01=0x00000005\)/,
    );
  });
  it("looks up versions given as data", () => {
    const custom = { ...DEVELOPMENT, name: "braid-test", code: 0x8000_0002 };
    assert.equal(findVersionByName("braid-test", [custom]), custom);
    assert.equal(findVersionByCode(0x8000_0002, [DEVELOPMENT, custom]), custom);
  });
});
