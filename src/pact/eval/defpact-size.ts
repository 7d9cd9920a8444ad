/**
 * Pact's size estimate (`SizeOfV0`) of a defpact's state, which prices writing it to the
 * database after every step (`GWrite`). It follows the estimate of values in src/pact/gas: a
 * record adds a 1-byte tag, an optional value 2 bytes, a map 5 bytes plus a tagged pair per
 * entry, an `Int` 5 bytes, a `Bool` 1, text its UTF-8 bytes plus 4.
 */
import { moduleNameSize, objectSize, sizeOf, textSize } from "../gas/size-of.ts";
import { parseQualifiedName } from "../values/names.ts";
import type {
  DefPactContinuation,
  DefPactExec,
  NestedDefPactExec,
  Provenance,
  Yield,
} from "./defpact-exec.ts";

const TAG = 1;
const OPTIONAL = 2;
/** An array's or map's header. */
const ARRAY = 5;
const INT = TAG + 4;
const BOOL = 1;
/** Added to a hash's raw bytes. */
const BYTES = 4;

function hashSize(base64: string): number {
  return Math.floor((base64.length * 3) / 4) + BYTES;
}

function continuationSize(c: DefPactContinuation): number {
  const qn = parseQualifiedName(c.def);
  const name = qn === null ? textSize(c.def) : TAG + textSize(qn.name) + moduleNameSize(qn.module);
  let args = ARRAY;
  for (const a of c.args) args += sizeOf(a);
  return TAG + name + args;
}

function provenanceSize(p: Provenance): number {
  return TAG + textSize(p.targetChainId) + hashSize(p.moduleHash);
}

function yieldSize(y: Yield | null): number {
  if (y === null) return OPTIONAL;
  const provenance = OPTIONAL + (y.provenance === null ? 0 : provenanceSize(y.provenance));
  const source = OPTIONAL + (y.source === null ? 0 : textSize(y.source));
  return OPTIONAL + TAG + objectSize(y.data) + provenance + source;
}

function nestedMapSize(nested: ReadonlyMap<string, NestedDefPactExec>): number {
  let n = ARRAY;
  for (const [id, e] of nested) n += TAG + textSize(id) + nestedSize(e);
  return n;
}

function nestedSize(e: NestedDefPactExec): number {
  return (
    TAG +
    INT +
    yieldSize(e.yield) +
    INT +
    textSize(e.pactId) +
    continuationSize(e.continuation) +
    nestedMapSize(e.nested)
  );
}

/** The size estimate of a defpact's state, in bytes. */
export function defPactExecSize(e: DefPactExec): number {
  return nestedSize(e) + BOOL;
}
