/**
 * What a lying peer (`lying-peer-server.ts`) serves: a branch of real blocks (made by an
 * in-process Braid node) in which one block breaks exactly one rule of the import pipeline —
 * everything else about it, hashes included, is made consistent, so only that rule can refuse it:
 *
 * - `bad-pow`: a block as a development node makes it, without proof of work (refused by a node
 *   that requires it);
 * - `wrong-adjacent`: its chain-5 adjacent hash names another real block (a genesis block of a
 *   chain that is not adjacent), its own hash recomputed;
 * - `from-the-future`: its creation time a day later, its hash recomputed (no proof of work on a
 *   development network a node mines on demand, so nothing else tells);
 * - `payload-mismatch`: for a transfer's block (a payload no other node has, so the victim cannot
 *   find the true one elsewhere), `payload/batch` answers other transactions under its hashes;
 * - `outputs-mismatch`: a transfer whose output text was changed, the outputs hash, payload hash
 *   and header made anew to match, so only executing it tells.
 *
 * Each lie knows the refusal a node must log for it (code and reason, exact).
 *
 * A peer that answers without end (`ENDLESS`) serves an honest branch instead, one block on each
 * chain ({@link blockOnEachChain}): `endless-branch` answers `header/branch` with a page that never
 * ends, `endless-payloads` answers the branch and then `payload/batch` without end.
 */
import { adjacentChains } from "../../../src/chain/graph/graph.ts";
import { genesisHeader } from "../../../src/chain/header/genesis.ts";
import {
  computeBlockHash,
  computePowHash,
  meetsTarget,
  powHashHex,
} from "../../../src/chain/header/hash.ts";
import type { BlockHeader } from "../../../src/chain/header/types.ts";
import { makeBlockHeader } from "../../../src/chain/mining/new-header.ts";
import {
  makePayloadWithOutputs,
  type PayloadData,
  payloadDataOf,
} from "../../../src/chain/payload/payload.ts";
import { DEVELOPMENT } from "../../../src/chain/version/known-versions.ts";
import { allChainIds, graphAt } from "../../../src/chain/version/version.ts";
import { word256Hex } from "../../../src/chain/word256.ts";
import { encodeBase64Url } from "../../../src/crypto/index.ts";
import type { ImportErrorCode } from "../../../src/node/import/import-error.ts";
import type { BraidNode } from "../../../src/node/node.ts";
import {
  blocksAfterGenesis,
  cap,
  devCommand,
  GAS_CAP,
  manualNode,
} from "../../../src/node/test-support/dev-node.ts";
import { JsonNumber } from "../../../src/pact/values/index.ts";

export const LIES = [
  "bad-pow",
  "wrong-adjacent",
  "from-the-future",
  "payload-mismatch",
  "outputs-mismatch",
] as const;
export type Lie = (typeof LIES)[number];
/** The ways a peer answers without end. */
export const ENDLESS = ["endless-branch", "endless-payloads"] as const;
export type Endless = (typeof ENDLESS)[number];

/** How far ahead the `from-the-future` block's creation time is: a day, in µs. */
const DAY_MICROS = 86_400_000_000;

const b64 = encodeBase64Url;
const utf8 = new TextEncoder();
const text = new TextDecoder();

/** A block as the liar serves it: its header, and the payload `payload/batch` answers for it. */
export interface ServedBlock {
  readonly header: BlockHeader;
  readonly payload: PayloadData;
}

/** The liar's branch and what a node must say of it. */
export interface LyingBranch {
  readonly lie: Lie;
  /** Every block of the branch after genesis, parents first; the lying one is among them. */
  readonly blocks: readonly ServedBlock[];
  /** The block that breaks the rule. */
  readonly lying: BlockHeader;
  /** The liar's cut: the highest block of the branch on each chain, else its genesis block. */
  readonly cut: ReadonlyMap<number, BlockHeader>;
  /** The refusal, as the import pipeline words it. */
  readonly code: ImportErrorCode;
  readonly reason: string;
}

/** Builds the branch of `lie` from blocks an in-process development node makes. */
export function lyingBranch(lie: Lie): LyingBranch {
  const source = manualNode();
  try {
    return lie === "payload-mismatch" || lie === "outputs-mismatch"
      ? transferLie(source, lie)
      : firstBlockLie(source, lie);
  } finally {
    source.close();
  }
}

/** One block on chain 0 at height 1 (its parents are genesis blocks every node has), changed. */
function firstBlockLie(
  source: BraidNode,
  lie: "bad-pow" | "wrong-adjacent" | "from-the-future",
): LyingBranch {
  const made = source.chainDb.block(source.producer.mine(0).header.hash)!;
  const honest = made.header;
  const payload = payloadDataOf(made.payload);
  if (lie === "bad-pow") {
    // One nonce in 100,000 meets the development target: step past it should this be one.
    let header = honest;
    while (meetsTarget(computePowHash(header), header.target)) {
      header = rehashed({ ...header, nonce: header.nonce + 1n });
    }
    const pow = powHashHex(computePowHash(header));
    return branch(
      lie,
      [{ header, payload }],
      header,
      "invalid-header",
      `PoW hash ${pow} exceeds target ${word256Hex(header.target)}`,
    );
  }
  if (lie === "from-the-future") {
    const header = rehashed({ ...honest, creationTime: honest.creationTime + DAY_MICROS });
    return branch(
      lie,
      [{ header, payload }],
      header,
      "block-in-the-future",
      `creation time ${header.creationTime} µs is ahead of this node's clock by more than 999 µs`,
    );
  }
  // wrong-adjacent: the first adjacent slot names a genesis block of a chain not adjacent.
  const graph = graphAt(source.version, 1);
  const [slot] = adjacentChains(graph, 0);
  const stranger = source.chains.find(
    (c) => c.chainId !== 0 && !adjacentChains(graph, 0).includes(c.chainId),
  )!.chainId;
  const named = genesisHeader(source.version, stranger).hash;
  const adjacents = new Map(honest.adjacents);
  adjacents.set(slot!, named);
  const header = rehashed({ ...honest, adjacents });
  return branch(
    lie,
    [{ header, payload }],
    header,
    "invalid-header",
    `the adjacent parent given for chain ${slot} is ${b64(named)} on chain ${stranger}; the header names ${b64(named)}`,
  );
}

/**
 * A transfer on chain 0 (at height 2, after a fresh parent and its neighbours: a payload no
 * other node has), then the lie:
 * - `payload-mismatch`: `payload/batch` answers other transactions under its hashes;
 * - `outputs-mismatch`: its output says something else, its outputs hash, payload hash and
 *   header made anew to match.
 */
function transferLie(source: BraidNode, lie: "payload-mismatch" | "outputs-mismatch"): LyingBranch {
  const amount = "1.0";
  source.commands.submit(0, [
    devCommand({
      code: `(coin.transfer "sender00" "sender01" ${amount})`,
      caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber(amount))],
      nonce: `lying-transfer ${Date.now()}`,
    }),
  ]);
  const mined = source.producer.mine(0).header;
  const before = blocksAfterGenesis(source)
    .filter((b) => b.header.height < mined.height)
    .map((b) => ({ header: b.header, payload: payloadDataOf(b.payload) }));
  const { header, payload } = source.chainDb.block(mined.hash)!;
  if (lie === "payload-mismatch") {
    const other = devCommand({ code: "(+ 1 2)", caps: [GAS_CAP], nonce: "lying-payload" });
    const bytes = utf8.encode(
      JSON.stringify({
        hash: other.hash,
        sigs: other.sigs.map((sig) => ({ sig })),
        cmd: other.cmd,
      }),
    );
    const served = { ...payloadDataOf(payload), transactions: [bytes] };
    return branch(
      lie,
      [...before, { header, payload: served }],
      header,
      "payload-mismatch",
      "the payload does not match transactionsHash",
    );
  }
  const transactions = payload.transactions.map((t, i) => {
    if (i > 0) return t;
    const changed = text.decode(t.output).replace("Write succeeded", "Write succeeded!");
    if (changed === text.decode(t.output)) throw new Error("the transfer's output changed nothing");
    return { ...t, output: utf8.encode(changed) };
  });
  const remade = makePayloadWithOutputs(transactions, payload.minerData, payload.coinbase);
  const db = source.chainDb;
  const lying = makeBlockHeader({
    version: source.version,
    parent: db.header(header.parent)!,
    adjacentParents: new Map([...header.adjacents].map(([c, hash]) => [c, db.header(hash)!])),
    payloadHash: remade.payloadHash,
    creationTime: header.creationTime,
  });
  return branch(
    lie,
    [...before, { header: lying, payload: payloadDataOf(remade) }],
    lying,
    "outputs-mismatch",
    "the outputs hash of executing it differs from the header's",
  );
}

/** One block on each chain at height 1, made by an in-process development node; and its cut. */
export function blockOnEachChain(): {
  blocks: readonly ServedBlock[];
  cut: ReadonlyMap<number, BlockHeader>;
} {
  const source = manualNode();
  try {
    const blocks = allChainIds(DEVELOPMENT).map((c) => {
      const { header, payload } = source.chainDb.block(source.producer.mine(c).header.hash)!;
      return { header, payload: payloadDataOf(payload) };
    });
    return { blocks, cut: new Map(blocks.map((b) => [b.header.chainId, b.header])) };
  } finally {
    source.close();
  }
}

function rehashed(header: BlockHeader): BlockHeader {
  return { ...header, hash: computeBlockHash(header) };
}

function branch(
  lie: Lie,
  blocks: readonly ServedBlock[],
  lying: BlockHeader,
  code: ImportErrorCode,
  reason: string,
): LyingBranch {
  const cut = new Map<number, BlockHeader>();
  for (const c of allChainIds(DEVELOPMENT)) cut.set(c, genesisHeader(DEVELOPMENT, c));
  for (const { header } of blocks) {
    if (header.height > cut.get(header.chainId)!.height) cut.set(header.chainId, header);
  }
  return { lie, blocks, lying, cut, code, reason };
}
