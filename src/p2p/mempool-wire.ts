/**
 * The wire forms of Chainweb's mempool P2P API, for both sides (the node's routes and the sync
 * client): the `getPending` answer `{"hashes":[…],"highwaterMark":[nonce,since]}`, whose nonce is
 * a 64-bit integer kept exact (JSON.parse would round it, and a peer compares it exactly); the
 * `lookup` answer `[{"tag":"Missing"} | {"tag":"Pending","contents":<transaction text>}]`; and
 * the transaction texts of `insert` and `lookup`, parsed and verified as `send` verifies a
 * command. A text that is not a command at all (not JSON, a field missing or of the wrong type,
 * a `cmd` that does not parse: Chainweb's decoding) is told apart from a command whose hash or
 * signatures are wrong (Chainweb's validation), as chainweb-node answers the first with a 400 and
 * leaves the second out silently.
 */
import {
  type CommandProblemKind,
  type ParsedCommand,
  parseCommandAsync,
  parseRequestKey,
} from "../command/index.ts";
import type { MempoolMark, PendingSince } from "../node/ports.ts";

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** A decimal integer text within 64 bits (Chainweb's `Int`/`Int64`), or null. */
export function parseInt64(text: string): bigint | null {
  if (!/^-?[0-9]{1,20}$/.test(text)) return null;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? null : value;
}

/** The `getPending` answer, keys in Chainweb's order. */
export function encodePending(pending: PendingSince): string {
  return `{"hashes":${JSON.stringify(pending.hashes)},"highwaterMark":[${pending.nonce},${pending.next}]}`;
}

/** A peer's `getPending` answer, or what is wrong with it. */
export function decodePending(text: string): { hashes: string[]; mark: MempoolMark } | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "the answer is not JSON";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return 'the answer is not an object {"hashes", "highwaterMark"}';
  }
  const { hashes, highwaterMark } = value as { hashes?: unknown; highwaterMark?: unknown };
  if (!Array.isArray(hashes)) return '"hashes" is not an array';
  const bad = hashes.findIndex((h) => typeof h !== "string" || !parseRequestKey(h).ok);
  if (bad !== -1) return `hashes[${bad}] is not a request key`;
  if (
    !Array.isArray(highwaterMark) ||
    highwaterMark.length !== 2 ||
    !highwaterMark.every(Number.isInteger)
  ) {
    return '"highwaterMark" is not [nonce, since], two integers';
  }
  // The integers' own digits: the text of the last "highwaterMark" member, which JSON.parse kept.
  const marks = [...text.matchAll(/"highwaterMark"\s*:\s*\[\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\]/g)];
  const digits = marks.at(-1);
  const nonce = digits === undefined ? null : parseInt64(digits[1]!);
  const since = digits === undefined ? null : parseInt64(digits[2]!);
  if (
    nonce === null ||
    since === null ||
    Number(nonce) !== highwaterMark[0] ||
    Number(since) !== highwaterMark[1]
  ) {
    return '"highwaterMark" is not two 64-bit integers';
  }
  return { hashes: hashes as string[], mark: { nonce, since } };
}

/** The `lookup` answer: each pending command's text, or Missing. */
export function encodeLookup(results: readonly (string | null)[]): string {
  const items = results.map((text) =>
    text === null ? '{"tag":"Missing"}' : `{"tag":"Pending","contents":${JSON.stringify(text)}}`,
  );
  return `[${items.join(",")}]`;
}

/** A peer's `lookup` answer for `count` keys, or what is wrong with it. */
export function decodeLookup(value: unknown, count: number): (string | null)[] | string {
  if (!Array.isArray(value)) return "the answer is not an array";
  if (value.length !== count) return `the answer has ${value.length} results for ${count} keys`;
  const results: (string | null)[] = [];
  for (const [i, item] of value.entries()) {
    const { tag, contents } = (typeof item === "object" && item !== null ? item : {}) as {
      tag?: unknown;
      contents?: unknown;
    };
    if (tag === "Missing") results.push(null);
    else if (tag === "Pending" && typeof contents === "string") results.push(contents);
    else return `result ${i} is neither {"tag":"Missing"} nor {"tag":"Pending","contents":<text>}`;
  }
  return results;
}

/** Transaction texts parsed and verified. */
export interface ParsedTransactions {
  /** The commands that parsed with a valid hash and signatures, in order. */
  readonly commands: ParsedCommand[];
  /** Texts that are commands whose hash or signatures are wrong. */
  readonly invalid: { readonly index: number; readonly reason: string }[];
  /** Texts that are not commands (the first problem of each). */
  readonly undecodable: { readonly index: number; readonly reason: string }[];
}

/** What makes a text undecodable rather than an invalid command (see the file's comment). */
const DECODING_PROBLEMS: ReadonlySet<CommandProblemKind> = new Set([
  "not-an-object",
  "missing-field",
  "wrong-type",
  "malformed-cmd",
  "bad-hash",
]);

/** Parses each transaction text and verifies its hash and signatures (on the thread pool). */
export async function parseTransactionTexts(texts: readonly string[]): Promise<ParsedTransactions> {
  const parsed: ParsedTransactions = { commands: [], invalid: [], undecodable: [] };
  const results = await Promise.all(
    texts.map(async (text) => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (e) {
        return { ok: false as const, decoding: true, reason: `not JSON: ${(e as Error).message}` };
      }
      const result = await parseCommandAsync(body, { verifySignatures: true });
      if (result.ok) return result;
      const decoding = result.problems.some((p) => DECODING_PROBLEMS.has(p.kind));
      const reason = result.problems.map((p) => p.message).join("; ");
      return { ok: false as const, decoding, reason };
    }),
  );
  results.forEach((result, index) => {
    if (result.ok) parsed.commands.push(result.command);
    else
      (result.decoding ? parsed.undecodable : parsed.invalid).push({
        index,
        reason: result.reason,
      });
  });
  return parsed;
}
