import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeBase64Url } from "../../crypto/index.ts";
import { equalBytes } from "../bytes.ts";
import type { BlockHeader } from "../header/types.ts";
import { decodeProofObject, merklePath } from "../merkle/proof.ts";
import { outputsLeaves } from "../payload/payload.ts";
import { type ChainwebHistory, makeChainwebHistory } from "../test-support/chainweb-history.ts";
import { Random } from "../test-support/random.ts";
import { TRANSITION_TEST_VERSION } from "../test-support/test-versions.ts";
import { DEVELOPMENT, MAINNET01 } from "../version/known-versions.ts";
import { graphAt } from "../version/version.ts";
import {
  createSpvProof,
  decodeSpvProof,
  encodeSpvProof,
  encodeSpvProofJson,
  runSpvProof,
  SpvError,
  type SpvProof,
  spvTargetHeight,
  TARGET_NOT_REACHABLE,
  verifySpvProof,
} from "./spv.ts";

const b64 = encodeBase64Url;
/** Byte offsets 4..11 of a proof object hold the subject position, which no hash covers. */
const POSITION_BYTES = new Set([4, 5, 6, 7, 8, 9, 10, 11]);

interface Case {
  source: BlockHeader;
  index: number;
  target: BlockHeader;
  proof: SpvProof;
}

/** Proofs for random outputs of a history to random target chains. */
function proofsOf(history: ChainwebHistory, random: Random, count: number): Case[] {
  const cases: Case[] = [];
  const sources = history.headers.filter(
    (h) => (history.payloads.get(b64(h.payloadHash))?.transactions.length ?? 0) > 0,
  );
  while (cases.length < count) {
    const source = random.pick(sources);
    const payload = history.payloads.get(b64(source.payloadHash))!;
    const targetChain = random.int(history.chains.length);
    if (!graphAt(history.version, source.height).adjacency.has(targetChain)) continue;
    const height = spvTargetHeight(history.version, source.chainId, targetChain, source.height);
    const target = history.at(targetChain, height);
    if (target === undefined) continue;
    const index = random.int(payload.transactions.length);
    const proof = createSpvProof({
      version: history.version,
      payload,
      outputIndex: index,
      sourceHeader: source,
      targetHeader: target,
      lookupHeader: history.lookup,
    });
    cases.push({ source, index, target, proof });
  }
  return cases;
}

const isBlock = (history: ChainwebHistory) => (chainId: number, hash: Uint8Array) =>
  history.lookup(chainId, hash) !== undefined;

describe("SPV proof properties", () => {
  for (const [version, seed] of [
    [DEVELOPMENT, 1],
    [DEVELOPMENT, 2],
    [TRANSITION_TEST_VERSION, 3],
  ] as const) {
    it(`verifies proofs of random outputs of a ${version.name} history (seed ${seed})`, () => {
      const history = makeChainwebHistory(new Random(seed), version, 400);
      for (const c of proofsOf(history, new Random(seed + 100), 60)) {
        const decoded = decodeSpvProof(encodeSpvProof(c.proof));
        assert.deepEqual(decoded, c.proof);
        const result = verifySpvProof(decoded, isBlock(history));
        assert.ok(result.ok, `proof of ${b64(c.source.hash)}[${c.index}]`);
        assert.deepEqual(result.root, c.target.hash);
        const payload = history.payloads.get(b64(c.source.payloadHash))!;
        assert.deepEqual(result.output, payload.transactions[c.index]!.output);
        assert.equal(decodeProofObject(c.proof.object).position, c.index + 1);
      }
    });
  }
  it("fails after any byte of the subject or the proof object is changed", () => {
    const history = makeChainwebHistory(new Random(4), DEVELOPMENT, 300);
    for (const c of proofsOf(history, new Random(44), 4)) {
      const check = (proof: SpvProof, where: string) =>
        assert.equal(verifySpvProof(proof, isBlock(history)).ok, false, where);
      for (let i = 0; i < c.proof.subject.length; i++) {
        const subject = c.proof.subject.slice();
        subject[i]! ^= 0x01;
        check({ ...c.proof, subject }, `subject byte ${i}`);
      }
      for (let i = 0; i < c.proof.object.length; i++) {
        if (POSITION_BYTES.has(i)) continue;
        const object = c.proof.object.slice();
        object[i]! ^= 0x01;
        check({ ...c.proof, object }, `object byte ${i}`);
      }
      check({ ...c.proof, chainId: (c.proof.chainId + 1) % 20 }, "target chain");
    }
  });
});

describe("SPV proof shape", () => {
  const history = makeChainwebHistory(new Random(9), DEVELOPMENT, 300);
  const source = history.headers.find(
    (h) =>
      h.chainId === 0 &&
      h.height >= 3 &&
      (history.payloads.get(b64(h.payloadHash))?.transactions.length ?? 0) >= 2,
  )!;
  const payload = history.payloads.get(b64(source.payloadHash))!;
  const make = (target: BlockHeader, index = 1, sourceHeader = source) =>
    createSpvProof({
      version: DEVELOPMENT,
      payload,
      outputIndex: index,
      sourceHeader,
      targetHeader: target,
      lookupHeader: history.lookup,
    });

  it("ends at the source block on its own chain", () => {
    const proof = make(source);
    assert.deepEqual(runSpvProof(proof), source.hash);
    const steps = decodeProofObject(proof.object).steps.length;
    // the outputs tree, then 1 step in the payload tree and 4 in the header tree (14 leaves)
    const outputSteps = merklePath(
      outputsLeaves(
        payload.coinbase,
        payload.transactions.map((t) => t.output),
      ),
      2,
    ).length;
    assert.equal(steps, outputSteps + 1 + 4);
  });
  it("walks parents and three adjacent hops to a chain at distance 3", () => {
    const height = spvTargetHeight(DEVELOPMENT, 0, 12, source.height);
    assert.equal(height, source.height + 3);
    const proof = make(history.at(12, height)!);
    assert.deepEqual(runSpvProof(proof), history.at(12, height)!.hash);
    const later = history.at(12, height + 2)!;
    assert.deepEqual(runSpvProof(make(later)), later.hash);
  });
  it("encodes the JSON envelope in chainweb-node's key order", () => {
    const proof = make(source, 0);
    assert.equal(
      encodeSpvProofJson(proof),
      `{"chain":0,"object":"${b64(proof.object)}","subject":{"input":"${b64(proof.subject)}"},"algorithm":"SHA512t_256"}`,
    );
    assert.equal(proof.subject[0], 0x00);
    assert.equal(proof.subject[1], 0x14);
    assert.deepEqual(proof.subject.subarray(2), payload.transactions[0]!.output);
    assert.deepEqual(decodeSpvProof(encodeSpvProofJson(proof)), proof);
  });
  it("names what keeps a proof from being made", () => {
    const error = (f: () => unknown, message: string) =>
      assert.throws(f, (e: unknown) => e instanceof SpvError && e.message === message);
    error(
      () => make(source, 99),
      `output index 99 is outside the block's ${payload.transactions.length} transactions`,
    );
    error(
      () => make(source, 0, history.at(0, source.height + 1)!),
      `the payload ${b64(payload.payloadHash)} is not the source block's payload ${b64(history.at(0, source.height + 1)!.payloadHash)}`,
    );
    error(() => make(history.at(12, 1)!), TARGET_NOT_REACHABLE);
    error(
      () => make(history.at(12, source.height + 1)!),
      "Target of SPV proof can't be reached from the source transaction",
    );
    const impostor = { ...source, hash: new Uint8Array(32) };
    error(
      () => make(history.at(5, source.height + 1)!, 0, impostor),
      `the source block AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA is not an ancestor of the target header ${b64(history.at(5, source.height + 1)!.hash)} (found ${b64(source.hash)} at its height)`,
    );
    const target = history.at(5, source.height + 3)!;
    assert.throws(
      () =>
        createSpvProof({
          version: DEVELOPMENT,
          payload,
          outputIndex: 0,
          sourceHeader: source,
          targetHeader: target,
          lookupHeader: (chain, hash) =>
            equalBytes(hash, source.hash) ? undefined : history.lookup(chain, hash),
        }),
      new RegExp(`header ${b64(source.hash)} on chain 0 is not known`),
    );
  });
});

describe("SPV target height", () => {
  it("adds the graph distance", () => {
    assert.equal(spvTargetHeight(DEVELOPMENT, 0, 0, 100), 100);
    assert.equal(spvTargetHeight(DEVELOPMENT, 0, 5, 100), 101);
    assert.equal(spvTargetHeight(DEVELOPMENT, 0, 12, 100), 103);
  });
  it("adds both graphs' distances across a graph change", () => {
    assert.equal(spvTargetHeight(MAINNET01, 0, 3, 852_052), 852_053);
    assert.equal(spvTargetHeight(MAINNET01, 0, 1, 852_053), 852_053 + 2 + 3);
  });
  it("refuses a chain that did not exist at the source height", () => {
    assert.throws(
      () => spvTargetHeight(MAINNET01, 0, 10, 852_053),
      (e: unknown) =>
        e instanceof SpvError &&
        e.message === "chain 10 is not in the graph at the source height 852053",
    );
  });
});

describe("SPV proof decoding and verification errors", () => {
  const wire = (o: unknown) => b64(new TextEncoder().encode(JSON.stringify(o)));
  const good = {
    chain: 1,
    object: "AAAAAAAAAAAAAAAA",
    subject: { input: "ABQ" },
    algorithm: "SHA512t_256",
  };
  it("accepts any key order", () => {
    const { chain, ...rest } = good;
    assert.deepEqual(decodeSpvProof(wire({ ...rest, chain })), {
      chainId: 1,
      subject: new Uint8Array([0, 0x14]),
      object: new Uint8Array(12),
    });
  });
  it("names the bad field", () => {
    const cases: [unknown, RegExp][] = [
      [{ ...good, algorithm: "Keccak_256" }, /algorithm must be "SHA512t_256", got "Keccak_256"/],
      [{ ...good, chain: "1" }, /"chain" must be a chain id, got "1"/],
      [{ ...good, subject: { tree: "AAAA" } }, /"subject" must be \{"input": <base64url>\}/],
      [{ ...good, object: 5 }, /"object" must be a base64url string/],
      [
        { ...good, object: "AAAAAQ" },
        /SPV proof: proof object of 4 bytes is shorter than its 12-byte header/,
      ],
      [[1], /must be a JSON object/],
    ];
    for (const [value, message] of cases) assert.throws(() => decodeSpvProof(wire(value)), message);
    assert.throws(() => decodeSpvProof("@@"), /neither base64url nor JSON/);
    assert.throws(() => decodeSpvProof("{x"), /not valid JSON/);
  });
  it("refuses a subject that is not a transaction output", () => {
    const proof = { chainId: 0, subject: new Uint8Array([0, 0x13, 1]), object: new Uint8Array(12) };
    assert.deepEqual(
      verifySpvProof(proof, () => true),
      {
        ok: false,
        reason: "the proof's subject is not a transaction output",
      },
    );
  });
});
