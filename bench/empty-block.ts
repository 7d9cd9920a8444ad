/**
 * What an empty block is made of. On-demand mining makes 19 of them for every block of a busy
 * chain (each chain must keep up with its neighbours), so their cost bounds what one sequential
 * client gets (docs/history/performance-node-2026-11.md, "What the remaining aims ask"). In this
 * process, on a node in memory and on SQLite files in a temporary directory, after 100
 * unmeasured rounds:
 * - rounds of one block on every chain, made as the node's levelling makes them (prepared chain
 *   by chain, then imported a layer of LEVEL_BLOCKS_PER_TURN at a time: headers validated, stored
 *   in one chain database transaction, the contract states committed), the two steps timed apart;
 * - the parts, each alone on one chain: running the coinbase (its state block rolled back each
 *   time), building the payload (outputs tree and payload hash), building the header (its Merkle
 *   hash over the fields) and validating it against its parents;
 * - one SHA-512/256 of a 65-byte Merkle node, the unit of the payload and header hashes.
 * Usage: node --import tsx bench/empty-block.ts [rounds, default 300]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adjacentChains } from "../src/chain/graph/graph.ts";
import type { BlockHeader } from "../src/chain/header/types.ts";
import { makeBlockHeader } from "../src/chain/mining/new-header.ts";
import { makePayloadWithOutputs } from "../src/chain/payload/payload.ts";
import { graphAt } from "../src/chain/version/version.ts";
import { sha512t256Parts } from "../src/crypto/index.ts";
import { executeBlock } from "../src/node/executor/block/block-executor.ts";
import { checkHeader } from "../src/node/import/block-import.ts";
import { makeLogger } from "../src/node/logger.ts";
import { LEVEL_BLOCKS_PER_TURN } from "../src/node/miner/producer.ts";
import { BraidNode } from "../src/node/node.ts";
import type { NodeChain } from "../src/node/node-chain.ts";
import { resolveNodeOptions } from "../src/node/options.ts";

const ROUNDS = Number(process.argv[2] ?? 300);
const WARM_UP_ROUNDS = 100;
/** Calls of each part measured alone. */
const PART_CALLS = 10_000;

const row = (label: string, micros: number) =>
  console.log(`  ${label.padEnd(42)} ${micros.toFixed(1).padStart(6)} µs`);

/** Microseconds per call of `step`, after a tenth as many unmeasured calls. */
function micros(calls: number, step: (i: number) => void): number {
  for (let i = 0; i < calls / 10; i++) step(i);
  const started = performance.now();
  for (let i = 0; i < calls; i++) step(i);
  return ((performance.now() - started) * 1000) / calls;
}

/** The blocks at `height` of the chains adjacent to `chain`'s next block. */
function adjacentParents(node: BraidNode, chain: NodeChain, height: number) {
  const neighbours = adjacentChains(graphAt(node.version, height + 1), chain.chainId);
  return new Map(neighbours.map((n) => [n, node.chains[n]!.headerAt(height)!] as const));
}

interface RoundTimes {
  prepare: number;
  store: number;
}

/** One block on every chain (all at one height), each step's milliseconds added to `times`. */
function round(node: BraidNode, times: RoundTimes, nextTime: () => number): void {
  const { height } = node.chains[0]!.head;
  for (let first = 0; first < node.chains.length; first += LEVEL_BLOCKS_PER_TURN) {
    const layer = node.chains.slice(first, first + LEVEL_BLOCKS_PER_TURN);
    const t0 = performance.now();
    const prepared = layer.map((chain) => ({
      chain,
      block: chain.prepareBlock([], adjacentParents(node, chain, height), nextTime()),
    }));
    const t1 = performance.now();
    node.importer.storeProduced(prepared);
    const t2 = performance.now();
    times.prepare += t1 - t0;
    times.store += t2 - t1;
  }
}

function measure(label: string, dataDir: string | null): void {
  const flags = dataDir === null ? { inMemory: true } : { dataDir };
  const node = BraidNode.open(resolveNodeOptions({}, flags), makeLogger("error"));
  try {
    // Creation times strictly after every block made so far, so any parents are older.
    let clock = Math.max(...node.chains.map((c) => c.head.creationTime));
    const nextTime = () => ++clock;
    const unused: RoundTimes = { prepare: 0, store: 0 };
    for (let i = 0; i < WARM_UP_ROUNDS; i++) round(node, unused, nextTime);
    const times: RoundTimes = { prepare: 0, store: 0 };
    const started = performance.now();
    for (let i = 0; i < ROUNDS; i++) round(node, times, nextTime);
    const blocks = ROUNDS * node.chains.length;
    const each = (ms: number) => (ms * 1000) / blocks;
    console.log(`\n${label}: ${blocks} empty blocks`);
    row("whole block", each(performance.now() - started));
    row("preparing it (coinbase, payload, header)", each(times.prepare));
    row("importing it (header, store, state commit)", each(times.store));

    const chain = node.chains[3]!;
    const state = chain.state.db;
    const parent: BlockHeader = chain.head;
    const env = chain.environment(parent);
    const coinbase = micros(PART_CALLS, () => {
      state.beginBlock(parent.height + 1);
      executeBlock(state, env, []);
      state.abortBlock();
    });
    state.beginBlock(parent.height + 1);
    const executed = executeBlock(state, env, []);
    state.abortBlock();
    const payload = makePayloadWithOutputs([], executed.minerData, executed.coinbase);
    const payloadMicros = micros(PART_CALLS, () => {
      makePayloadWithOutputs([], executed.minerData, executed.coinbase);
    });
    const adjacent = adjacentParents(node, chain, parent.height);
    const header = micros(PART_CALLS, (i) => {
      makeBlockHeader({
        version: node.version,
        parent,
        adjacentParents: adjacent,
        payloadHash: payload.payloadHash,
        creationTime: parent.creationTime + 1 + i,
      });
    });
    const made = makeBlockHeader({
      version: node.version,
      parent,
      adjacentParents: adjacent,
      payloadHash: payload.payloadHash,
      creationTime:
        Math.max(parent.creationTime, ...[...adjacent.values()].map((a) => a.creationTime)) + 1,
    });
    const validating = micros(PART_CALLS, () => {
      checkHeader(node.version, made, (c, hash) => node.chains[c]!.headOrParent(hash), {
        hashChecked: true,
      });
    });
    row("alone: running the coinbase", coinbase);
    row("alone: building the payload", payloadMicros);
    row("alone: building the header", header);
    row("alone: validating the header", validating);
  } finally {
    node.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), "braid-bench-empty-"));
try {
  const left = new Uint8Array([1]);
  const node = new Uint8Array(32);
  const hashMicros = micros(100_000, () => sha512t256Parts([left, node, node]));
  console.log(`one SHA-512/256 of a Merkle node (65 bytes): ${hashMicros.toFixed(2)} µs`);
  measure("state and chain database in memory", null);
  measure("SQLite files", join(dir, "data"));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
