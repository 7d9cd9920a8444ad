/**
 * What the node reads back from the payloads it stores: their commands (verified when they were
 * first taken), each command's transaction index entry, and the miner paid.
 */

import type { BlockHeader } from "../chain/header/types.ts";
import type { PayloadWithOutputs } from "../chain/payload/payload.ts";
import { type ParsedCommand, parseCommand } from "../command/index.ts";
import { encodeBase64Url } from "../crypto/index.ts";
import { minerOfData } from "./executor/block/block-executor.ts";
import type { MinerAccount } from "./options.ts";

const utf8 = new TextDecoder();

/**
 * The transaction index entries of a payload: each command's request key and where its output
 * leaves room for `metaData` (found by scanning the output's top-level keys).
 */
export function indexOfPayload(payload: PayloadWithOutputs) {
  return payload.transactions.map((t) => {
    const output = utf8.decode(t.output);
    const offset = topLevelValueOffset(output, "metaData");
    if (offset === null) throw new Error("a command output without metaData");
    return {
      requestKey: storedCommand(t.transaction).hashBytes,
      metaOffset: Buffer.byteLength(output.slice(0, offset)),
    };
  });
}

/**
 * Where the value of `key` starts in a JSON object's text, looking at its top-level keys only
 * (strings and nested values are skipped); null when it has no such key.
 */
export function topLevelValueOffset(json: string, key: string): number | null {
  const wanted = JSON.stringify(key);
  let depth = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      const start = i;
      for (i++; i < json.length && json[i] !== '"'; i++) if (json[i] === "\\") i++;
      if (depth === 1 && json.slice(start, i + 1) === wanted && json[i + 1] === ":") return i + 2;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
  }
  return null;
}

/** A command as stored in a payload (already verified when it was first accepted). */
export function storedCommand(bytes: Uint8Array): ParsedCommand {
  const parsed = parseCommand(JSON.parse(utf8.decode(bytes)), {
    verifySignatures: false,
  });
  if (!parsed.ok)
    throw new Error(`a stored command does not parse: ${parsed.problems[0]?.message}`);
  return parsed.command;
}

/** The miner a stored block paid (its payload's miner data, checked when it was imported). */
export function storedMiner(header: BlockHeader, payload: PayloadWithOutputs): MinerAccount {
  const miner = minerOfData(payload.minerData);
  if (miner === null) {
    throw new Error(`block ${encodeBase64Url(header.hash)} holds miner data Braid cannot pay`);
  }
  return miner;
}
