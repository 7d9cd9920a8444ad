/**
 * chainweb-node's own genesis payloads, from its generated modules
 * (`src/Chainweb/BlockHeader/Genesis/<Version><Chains>Payload.hs`) or from their JSON form (those
 * modules' strings decoded, one file per module: `source`, `expectedPayloadHash`, `minerData`,
 * `coinbase`, `transactions[]` of `{command, output}`): the commands Braid executes
 * (executor/block/genesis-execution.ts), the outputs chainweb-node recorded for them, and the
 * bytes its payload hash covers.
 *
 * The payload's parts are written back as chainweb-node wrote them, compact JSON with the keys in
 * their order, so the bytes of a recorded output and of Braid's own output for the same command
 * can be compared, and hashed, as they are.
 */
import { equalBytes } from "../../chain/bytes.ts";
import {
  type CommandProblem,
  DEFAULT_COMMAND_HASH,
  type ParsedCommand,
  parseCommandPayload,
} from "../../command/index.ts";
import { decodeBase64Url } from "../../crypto/index.ts";
import { encodeJsonText, type JsonValue, parseJson } from "../../pact/values/index.ts";

/** One chainweb-node genesis payload, as its JSON form gives it. */
export interface ChainwebGenesisPayload {
  /** Unpadded base64url: the payload hash chainweb-node's module asserts. */
  readonly expectedPayloadHash: string;
  readonly minerData: Uint8Array;
  /** The coinbase output (a genesis block has none: `NO_COINBASE`). */
  readonly coinbase: Uint8Array;
  readonly transactions: readonly ChainwebGenesisTransaction[];
}

export interface ChainwebGenesisTransaction {
  readonly command: ParsedCommand;
  /** The output chainweb-node recorded for the command, as the payload holds it. */
  readonly output: Uint8Array;
}

/** A file that is not a genesis payload in the JSON form; the message names the bad part. */
export class ChainwebGenesisError extends Error {
  override name = "ChainwebGenesisError";
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Reads a genesis payload's JSON form; `file` names it in errors. */
export function readChainwebGenesisPayload(text: string, file: string): ChainwebGenesisPayload {
  const fail = (what: string) => new ChainwebGenesisError(`${file}: ${what}`);
  let root: JsonValue;
  try {
    root = parseJson(text);
  } catch (e) {
    throw fail(`not JSON: ${(e as Error).message}`);
  }
  const top = object(root, "the document", fail);
  const expectedPayloadHash = top.get("expectedPayloadHash");
  if (typeof expectedPayloadHash !== "string") throw fail("expectedPayloadHash is not a string");
  const transactions = top.get("transactions");
  if (!Array.isArray(transactions)) throw fail("transactions is not a list");
  return {
    expectedPayloadHash,
    minerData: part(top, "minerData", fail),
    coinbase: part(top, "coinbase", fail),
    transactions: transactions.map((tx, i) => {
      const where = `transactions[${i}]`;
      const entry = object(tx, where, fail);
      return {
        command: genesisCommand(
          object(entry.get("command"), `${where}.command`, fail),
          where,
          fail,
        ),
        output: part(entry, "output", fail, `${where}.`),
      };
    }),
  };
}

/**
 * A genesis command as chainweb-node takes it: its `cmd` parsed, its hash the one recorded. That
 * hash is not checked, nor can it be: chainweb-node's genesis commands carry the hash of their
 * `cmd` before it was written again in another key order, and chainweb-node runs them unchecked.
 */
function genesisCommand(
  command: Map<string, JsonValue>,
  where: string,
  fail: (what: string) => ChainwebGenesisError,
): ParsedCommand {
  const cmd = command.get("cmd");
  const hash = command.get("hash");
  const sigs = command.get("sigs");
  if (typeof cmd !== "string" || typeof hash !== "string" || !Array.isArray(sigs)) {
    throw fail(`${where}.command is not {hash, sigs, cmd}`);
  }
  if (sigs.length > 0) throw fail(`${where}.command is signed: genesis commands are not`);
  const problems: CommandProblem[] = [];
  const payload = parseCommandPayload(cmd, problems);
  if (payload === undefined) {
    throw fail(`${where}.command.cmd: ${problems.map((p) => p.message).join("; ")}`);
  }
  let hashBytes: Uint8Array;
  try {
    hashBytes = decodeBase64Url(hash);
  } catch (e) {
    throw fail(`${where}.command.hash: ${(e as Error).message}`);
  }
  return { cmd, hash, hashBytes, hashAlgorithm: DEFAULT_COMMAND_HASH, sigs: [], payload };
}

/**
 * A genesis command of chainweb-node's as a stored genesis block holds it (its JSON text), read
 * as the payload's JSON form is: its recorded hash taken unchecked.
 */
export function storedChainwebGenesisCommand(bytes: Uint8Array): ParsedCommand {
  return commandOfBytes(
    bytes,
    "the command",
    (what) => new ChainwebGenesisError(`a stored genesis command: ${what}`),
  );
}

function commandOfBytes(
  bytes: Uint8Array,
  where: string,
  fail: (what: string) => ChainwebGenesisError,
): ParsedCommand {
  let value: JsonValue;
  try {
    value = parseJson(utf8Decoder.decode(bytes));
  } catch (e) {
    throw fail(`${where} is not JSON: ${(e as Error).message}`);
  }
  return genesisCommand(object(value, where, fail), where, fail);
}

/** A `name = unsafeFromText "<base64url>"` binding of a generated genesis module. */
const moduleBinding = (name: string) =>
  new RegExp(`^\\s*${name} = unsafeFromText "([A-Za-z0-9_-]*)"\\s*$`, "m");

/** One `(transaction, output)` pair of a generated genesis module's `txs`, each base64url bytes. */
const MODULE_TRANSACTION =
  /\(unsafeFromText "([A-Za-z0-9_-]*)", unsafeFromText "([A-Za-z0-9_-]*)"\)/g;

/**
 * Reads one of chainweb-node's generated genesis modules (the Haskell source
 * `src/Chainweb/BlockHeader/Genesis/<Version><Chains>Payload.hs`): its `expectedHash`,
 * `minerData`, `coinbase` and the `(transaction, output)` pairs of `txs`, each the base64url of
 * the bytes chainweb-node hashes. `file` names it in errors.
 */
export function readChainwebGenesisModule(text: string, file: string): ChainwebGenesisPayload {
  const fail = (what: string) => new ChainwebGenesisError(`${file}: ${what}`);
  const binding = (name: string): string => {
    const found = moduleBinding(name).exec(text);
    if (found === null)
      throw fail(`no ${name} = unsafeFromText "…" (not a generated genesis module)`);
    return found[1]!;
  };
  const bytes = (encoded: string, what: string): Uint8Array => {
    try {
      return decodeBase64Url(encoded);
    } catch (e) {
      throw fail(`${what}: ${(e as Error).message}`);
    }
  };
  const expectedPayloadHash = binding("expectedHash");
  const minerData = bytes(binding("minerData"), "minerData");
  const coinbase = bytes(binding("coinbase"), "coinbase");
  const transactions = [...text.matchAll(MODULE_TRANSACTION)].map(([, tx, output], i) => {
    const where = `txs[${i}]`;
    return {
      command: commandOfBytes(bytes(tx!, `${where} transaction`), `${where} transaction`, fail),
      output: bytes(output!, `${where} output`),
    };
  });
  if (transactions.length === 0) throw fail("no (transaction, output) pairs in txs");
  return { expectedPayloadHash, minerData, coinbase, transactions };
}

function object(
  value: JsonValue | undefined,
  where: string,
  fail: (what: string) => ChainwebGenesisError,
): Map<string, JsonValue> {
  if (!(value instanceof Map)) throw fail(`${where} is not an object`);
  return value;
}

/** An object of the payload as the bytes chainweb-node wrote for it. */
function part(
  parent: Map<string, JsonValue>,
  key: string,
  fail: (what: string) => ChainwebGenesisError,
  prefix = "",
): Uint8Array {
  return utf8.encode(encodeJsonText(object(parent.get(key), `${prefix}${key}`, fail)));
}

/** A field of a transaction's output where Braid's and chainweb-node's differ. */
export interface OutputDifference {
  /** The transaction's position in the payload. */
  readonly transaction: number;
  /** `result`, `logs`, `events`, `txId`, …, or `(bytes)` when only the bytes differ. */
  readonly field: string;
  /** The field's JSON text in Braid's output, or `absent`. */
  readonly braid: string;
  /** The same in chainweb-node's. */
  readonly chainweb: string;
}

/**
 * Where Braid's output of transaction `index` differs from the one chainweb-node recorded: every
 * top-level field whose value differs, in the order of chainweb-node's keys (then Braid's own);
 * `(bytes)` when every field is equal but the texts are not (key order, number forms).
 */
export function outputDifferences(
  index: number,
  braid: Uint8Array,
  chainweb: Uint8Array,
): OutputDifference[] {
  const ours = parseJson(utf8Decoder.decode(braid));
  const theirs = parseJson(utf8Decoder.decode(chainweb));
  if (!(ours instanceof Map) || !(theirs instanceof Map)) {
    throw new ChainwebGenesisError(`transaction ${index}: an output is not a JSON object`);
  }
  const differences: OutputDifference[] = [];
  for (const field of new Set([...theirs.keys(), ...ours.keys()])) {
    const a = ours.get(field);
    const b = theirs.get(field);
    const braidText = a === undefined ? "absent" : encodeJsonText(a);
    const chainwebText = b === undefined ? "absent" : encodeJsonText(b);
    if (braidText !== chainwebText) {
      differences.push({ transaction: index, field, braid: braidText, chainweb: chainwebText });
    }
  }
  if (differences.length === 0 && !equalBytes(braid, chainweb)) {
    differences.push({
      transaction: index,
      field: "(bytes)",
      braid: utf8Decoder.decode(braid),
      chainweb: utf8Decoder.decode(chainweb),
    });
  }
  return differences;
}
