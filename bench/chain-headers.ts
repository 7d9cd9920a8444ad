/**
 * Block header throughput on one core: headers hashed per second (the Merkle block hash, from
 * the header and from its encoded bytes), headers decoded, headers validated against their
 * parents and adjacent parents, PoW nonces tried per second, and SPV proofs made and verified.
 * The history is a seeded, braided development chainweb of 20 chains.
 * Usage: node --import tsx bench/chain-headers.ts [blocks, default 2000]
 */

import { decodeHeader, encodeHeader, encodeHeaderWithoutHash } from "../src/chain/header/binary.ts";
import { blockHashOfWork, computeBlockHash } from "../src/chain/header/hash.ts";
import type { BlockHeader } from "../src/chain/header/types.ts";
import { mineNonce } from "../src/chain/mining/mine.ts";
import {
  createSpvProof,
  type SpvProof,
  spvTargetHeight,
  verifySpvProof,
} from "../src/chain/proof/spv.ts";
import { makeChainwebHistory } from "../src/chain/test-support/chainweb-history.ts";
import { Random } from "../src/chain/test-support/random.ts";
import { type HeaderValidationInput, validateHeader } from "../src/chain/validation/validate.ts";
import { DEVELOPMENT } from "../src/chain/version/known-versions.ts";
import { blake2s256, encodeBase64Url } from "../src/crypto/index.ts";

const BLOCKS = Number(process.argv[2] ?? 2000);
/** How long each measurement runs. */
const MEASURE_MS = 2000;

/** Calls `step(i)` for i = 0, 1, 2… until MEASURE_MS has passed; returns calls per second. */
function rate(step: (i: number) => unknown): number {
  for (let i = 0; i < 200; i++) step(i); // warm-up
  const start = performance.now();
  let calls = 0;
  while (performance.now() - start < MEASURE_MS) {
    for (let k = 0; k < 100; k++) step(calls++);
  }
  return calls / ((performance.now() - start) / 1000);
}

function report(what: string, perSecond: number): void {
  console.log(
    `${what.padEnd(44)} ${Math.round(perSecond).toLocaleString("en-US").padStart(12)} /s`,
  );
}

const built = performance.now();
const history = makeChainwebHistory(new Random(2024), DEVELOPMENT, BLOCKS);
console.log(
  `history: ${history.headers.length} headers on 20 chains, built in ${Math.round(performance.now() - built)} ms`,
);

const headers = history.headers.filter((h) => h.height > 0);
const encoded = headers.map(encodeHeader);
const works = headers.map((h) => encodeHeaderWithoutHash(h));
const pick = <T>(items: readonly T[], i: number) => items[i % items.length]!;

report(
  "headers hashed (fields → block hash)",
  rate((i) => computeBlockHash(pick(headers, i))),
);
report(
  "headers hashed (286 bytes → block hash)",
  rate((i) => blockHashOfWork(pick(works, i))),
);
report(
  "headers decoded (318 bytes → header)",
  rate((i) => decodeHeader(pick(encoded, i))),
);

const inputs: HeaderValidationInput[] = headers.map((header) => {
  const adjacentParents = new Map<number, BlockHeader>();
  for (const [chain, hash] of header.adjacents)
    adjacentParents.set(chain, history.lookup(chain, hash)!);
  return {
    version: DEVELOPMENT,
    header,
    parent: history.lookup(header.chainId, header.parent),
    adjacentParents,
  };
});
for (const input of inputs) {
  if (!validateHeader(input).ok) throw new Error("the generated history should be valid");
}
report(
  "headers validated (with parents given)",
  rate((i) => validateHeader(pick(inputs, i))),
);

const work = works[0]!.slice();
const TRIES = 200_000;
const started = performance.now();
if (mineNonce(work, 0n, 0n, TRIES) !== undefined) throw new Error("target 0 cannot be met");
report("PoW nonces tried (mineNonce)", TRIES / ((performance.now() - started) / 1000));
report(
  "  for comparison: crypto blake2s256 calls",
  rate(() => blake2s256(work)),
);

const proofs: SpvProof[] = [];
const random = new Random(7);
const sources = headers.filter(
  (h) => (history.payloads.get(encodeBase64Url(h.payloadHash))?.transactions.length ?? 0) > 0,
);
const makeProof = (i: number): SpvProof | undefined => {
  const source = pick(sources, i);
  const payload = history.payloads.get(encodeBase64Url(source.payloadHash))!;
  const targetChain = (source.chainId + 1 + (i % 19)) % 20;
  const target = history.at(
    targetChain,
    spvTargetHeight(DEVELOPMENT, source.chainId, targetChain, source.height),
  );
  if (target === undefined) return undefined;
  return createSpvProof({
    version: DEVELOPMENT,
    payload,
    outputIndex: random.int(payload.transactions.length),
    sourceHeader: source,
    targetHeader: target,
    lookupHeader: history.lookup,
  });
};
for (let i = 0; proofs.length < 200; i++) {
  const proof = makeProof(i);
  if (proof !== undefined) proofs.push(proof);
}
report(
  "SPV output proofs created",
  rate((i) => makeProof(i)),
);
const isBlock = (chainId: number, hash: Uint8Array) => history.lookup(chainId, hash) !== undefined;
report(
  "SPV output proofs verified",
  rate((i) => verifySpvProof(pick(proofs, i), isBlock)),
);
