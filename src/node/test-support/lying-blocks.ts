/**
 * Blocks that are not what they claim, for import tests: a real block's payload changed, with a
 * valid header made anew for it, so that only executing it tells.
 */
import type { Block } from "../../chain/db/index.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import { makeBlockHeader } from "../../chain/mining/new-header.ts";
import { makePayloadWithOutputs } from "../../chain/payload/payload.ts";
import type { BraidNode } from "../node.ts";

const utf8 = new TextEncoder();
const text = new TextDecoder();

/** `block` with its first output's text changed, its payload and header made anew to match. */
export function withOtherOutput(source: BraidNode, block: Block, from: string, to: string): Block {
  const { header, payload } = block;
  const transactions = payload.transactions.map((t, i) =>
    i === 0 ? { ...t, output: utf8.encode(text.decode(t.output).replace(from, to)) } : t,
  );
  const remade = makePayloadWithOutputs(transactions, payload.minerData, payload.coinbase);
  return {
    header: reheader(source, header, remade.payloadHash),
    payload: remade,
  };
}

/** A valid header like `header`, for another payload (and creation time). */
export function reheader(
  source: BraidNode,
  header: BlockHeader,
  payloadHash: Uint8Array,
  creationTime = header.creationTime,
): BlockHeader {
  const db = source.chainDb;
  return makeBlockHeader({
    version: source.version,
    parent: db.header(header.parent)!,
    adjacentParents: new Map([...header.adjacents].map(([c, hash]) => [c, db.header(hash)!])),
    payloadHash,
    creationTime,
  });
}
