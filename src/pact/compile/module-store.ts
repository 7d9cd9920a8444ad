/**
 * Where defined modules and interfaces live between top-level forms and transactions. The
 * compiler reads modules through this interface; the in-memory store below serves the REPL, and
 * the database layer provides a persistent one (it stores each module's code and recompiles it, or
 * keeps compiled modules cached by hash).
 */
import type { LoadedModule } from "./definitions.ts";

export interface ModuleStore {
  /** The current version of a module or interface, by its rendered name (`ns.m` or `m`). */
  read(name: string): LoadedModule | undefined;
  /** Installs a module or interface (a new one, or a new version replacing the old). */
  write(module: LoadedModule): void;
  /** Every stored name, sorted (for `list-modules`). */
  names(): readonly string[];
}

/** Modules in a Map; `snapshot`/`restore` give the transaction layer cheap rollback. */
export class MemoryModuleStore implements ModuleStore {
  private modules = new Map<string, LoadedModule>();

  read(name: string): LoadedModule | undefined {
    return this.modules.get(name);
  }

  write(module: LoadedModule): void {
    this.modules.set(module.info.rendered, module);
  }

  names(): readonly string[] {
    return [...this.modules.keys()].sort();
  }

  /** The current contents, to restore on rollback. */
  snapshot(): ReadonlyMap<string, LoadedModule> {
    return new Map(this.modules);
  }

  restore(snapshot: ReadonlyMap<string, LoadedModule>): void {
    this.modules = new Map(snapshot);
  }
}
