/**
 * The chain database's ancestry read by another connection (an execution thread's): where a
 * stored block sits and whether one block descends from another, which is all the proofs a
 * command checks (`cont` across chains, `verify-spv`) ask of the chain database. It reads what
 * the node's own connection has committed, and writes nothing.
 */
import Database from "better-sqlite3";
import { decodeHeader } from "../header/binary.ts";
import { Ancestry, type HeaderLink } from "./ancestry.ts";
import { plain } from "./column-values.ts";

export interface AncestryReader {
  link(hash: Uint8Array): HeaderLink | undefined;
  isAncestor(ancestor: Uint8Array, descendant: Uint8Array): boolean;
  close(): void;
}

/** Opens the chain database at `path` (an existing file) for ancestry reads only. */
export function openAncestryReader(path: string): AncestryReader {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const headerBytes = db.prepare("SELECT bytes FROM block_headers WHERE hash = ?").pluck();
    const ancestry = new Ancestry(db, {
      header: (hash) => {
        const bytes = headerBytes.get(hash) as Uint8Array | undefined;
        return bytes === undefined ? undefined : decodeHeader(plain(bytes));
      },
    });
    return {
      link: (hash) => ancestry.link(hash),
      isAncestor: (ancestor, descendant) => ancestry.isAncestor(ancestor, descendant),
      close: () => db.close(),
    };
  } catch (e) {
    db.close();
    throw e;
  }
}
