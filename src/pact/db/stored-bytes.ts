/**
 * The bytes Pact 5 stores for each write, as chainweb-node's contract state holds them
 * (`Pact.Core.Serialise`, `serialisePact_lineinfo_pact51`), which are what a transaction's write
 * log holds and so what its `logs` hash covers (txlog.ts). Each value is a document: its version
 * (0, CBOR) then the value's CBOR (`CBOR_V1`) as a byte string; a module's source is its UTF-8
 * text in the same envelope; a new table's entry is the stable JSON of the module it belongs to.
 *
 * Braid's own storage (codec.ts) keeps JSON texts, which keep every decimal's places as Pact's
 * stored CBOR does (`1.0` and `1.00` stay apart), so a row read back from storage or from the row
 * cache gives the same bytes when written again.
 */
import { CborWriter } from "../values/cbor.ts";
import { guard, keySet, pactValue } from "../values/cbor-values.ts";
import { encodeModuleName } from "../values/json.ts";
import { compareCodePoints } from "../values/text.ts";
import type { KeySet, ModuleName, PactObject } from "../values/types.ts";
import type { NamespaceRecord } from "./types.ts";

/** Pact's `DocumentVersion` `V1_CBOR`, written before every stored value. */
const DOCUMENT_VERSION = 0;

const utf8 = new TextEncoder();

function document(inner: Uint8Array): Uint8Array {
  return new CborWriter().word(DOCUMENT_VERSION).byteString(inner).bytes();
}

function encoded(write: (w: CborWriter) => void): Uint8Array {
  const w = new CborWriter();
  write(w);
  return document(w.bytes());
}

/** A user table's row (`RowData`: a map from field to value, fields in ascending order). */
export function rowBytes(row: PactObject): Uint8Array {
  return encoded((w) => {
    const fields = [...row.keys()].sort(compareCodePoints);
    w.mapLen(fields.length);
    for (const field of fields) {
      w.text(field);
      pactValue(w, row.get(field)!);
    }
  });
}

export function keySetBytes(ks: KeySet): Uint8Array {
  return encoded((w) => keySet(w, ks));
}

/** A namespace: its name, user guard and admin guard. */
export function namespaceBytes(ns: NamespaceRecord): Uint8Array {
  return encoded((w) => {
    w.listLen(3).text(ns.name);
    guard(w, ns.user);
    guard(w, ns.admin);
  });
}

/** A module's or interface's CBOR (`ModuleData`, from the compiler) as a document. */
export function moduleDataBytes(data: Uint8Array): Uint8Array {
  return document(data);
}

/** The code of the transaction that installed a module (`ModuleCode`). */
export function moduleSourceBytes(code: string): Uint8Array {
  return document(utf8.encode(code));
}

/** A new table's entry: the stable JSON of its module (`UserTableInfo`). */
export function userTableBytes(module: ModuleName): Uint8Array {
  return utf8.encode(`{"utModule":${encodeModuleName(module)}}`);
}
