/**
 * The storage an execution sees, with transactions. Today it holds modules (in memory); the
 * database layer extends it with user tables, keysets, namespaces and defpact state (SQLite).
 */

import type { LoadedModule } from "../compile/definitions.ts";
import { MemoryModuleStore, type ModuleStore } from "../compile/module-store.ts";
import { PactError } from "../runtime/errors.ts";

export interface PactDb {
  readonly modules: ModuleStore;
  /** Opens a transaction and returns its id, or null when one is already open. */
  beginTx(): number | null;
  /** Commits the open transaction and returns its id; throws when none is open. */
  commitTx(): number;
  /** Undoes every write since `beginTx`; throws when no transaction is open. */
  rollbackTx(): number;
}

/** Pact's `DbOpFailure (NotInTx …)`. */
export function notInTxError(op: "commit" | "rollback"): PactError {
  return new PactError(
    "execution",
    `Error during database operation: No Transaction currently in progress, cannot execute "${op}"`,
  );
}

/**
 * In-memory storage (Pact's mock database): writes outside a transaction apply at once; a
 * transaction snapshots the state and rollback restores it. Transaction ids count commits.
 */
export class MemoryPactDb implements PactDb {
  readonly modules = new MemoryModuleStore();
  private nextTxId = 0;
  private rollbackState: ReadonlyMap<string, LoadedModule> | null = null;

  beginTx(): number | null {
    if (this.rollbackState !== null) return null;
    this.rollbackState = this.modules.snapshot();
    return this.nextTxId;
  }

  commitTx(): number {
    if (this.rollbackState === null) throw notInTxError("commit");
    this.rollbackState = null;
    return this.nextTxId++;
  }

  rollbackTx(): number {
    if (this.rollbackState === null) throw notInTxError("rollback");
    this.modules.restore(this.rollbackState);
    this.rollbackState = null;
    return this.nextTxId;
  }
}
