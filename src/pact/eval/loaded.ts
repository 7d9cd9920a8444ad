/**
 * The names a transaction has in scope at the top level (Pact's `Loaded`): modules read so far,
 * bare names brought in by `use`, module definitions and REPL definitions, and the current
 * namespace. It is the name resolver for top-level compilation.
 */
import type { NameResolver } from "../compile/context.ts";
import type { Definition, LoadedModule } from "../compile/ir.ts";
import {
  type LoadedDefinition,
  ownDefinitions,
  storedDependencies,
} from "../compile/module-hash/dependencies.ts";
import type { ModuleStore } from "../compile/module-store.ts";
import { REPL_MODULE_HASH, renderModuleName } from "../compile/names.ts";
import type { ModuleName } from "../values/types.ts";

/** Definitions merged into the loaded ones: how many there were, how many are added. */
export interface DefinitionMerge {
  readonly loaded: number;
  readonly added: number;
}

export class LoadedNames implements NameResolver {
  /** Modules and interfaces read in this transaction, by rendered name. */
  readonly modules = new Map<string, LoadedModule>();
  /**
   * The lists of definitions merged so far, not yet in {@link definitions}' map: a transaction
   * that reads one module (the node's coinbase and gas calls, most commands) only ever needs
   * their number, so the dozens of definitions of `coin` are not copied into a map for each one.
   */
  private readonly pending: (readonly LoadedDefinition[])[] = [];
  private readonly merged = new Map<string, LoadedDefinition>();
  /** Bare names visible at the top level. */
  readonly toplevel = new Map<string, Definition>();
  namespace: string | null = null;
  readonly current = null;

  constructor(
    private readonly store: () => ModuleStore,
    /**
     * Told of each module read from the store (the first use in the transaction) and, unless the
     * read merges nothing, the number of definitions loaded before and of those the module adds
     * (its own and its dependencies).
     */
    private readonly onRead: (
      module: LoadedModule,
      merge: DefinitionMerge | null,
    ) => void = () => {},
  ) {}

  bare(name: string): Definition | undefined {
    return this.toplevel.get(name);
  }

  /**
   * A module by name, read from the store on first use. `merge` is false for a read that Pact
   * makes without charging the merge of its definitions (a module's governance, before an
   * upgrade).
   */
  module(name: ModuleName, merge = true): LoadedModule | undefined {
    const key = renderModuleName(name);
    const cached = this.modules.get(key);
    if (cached !== undefined) return cached;
    const stored = this.store().read(key);
    if (stored !== undefined) {
      const added = [
        ...ownDefinitions(stored),
        ...storedDependencies(stored, (ref) => this.store().read(ref.module.rendered)),
      ];
      this.onRead(stored, merge ? { loaded: this.loadedCount(), added: added.length } : null);
      this.addDefinitions(added);
      this.modules.set(key, stored);
    }
    return stored;
  }

  /** Makes a just-defined module current and its members visible at the top level. */
  install(module: LoadedModule): void {
    this.modules.set(module.info.rendered, module);
    this.addDefinitions(ownDefinitions(module));
    for (const [name, def] of module.defs) this.toplevel.set(name, def);
  }

  /** Merges `defs` into the loaded definitions. */
  addDefinitions(defs: readonly LoadedDefinition[]): void {
    if (defs.length > 0) this.pending.push(defs);
  }

  /**
   * Every definition the transaction has loaded (Pact's `loAllLoaded`), by fully qualified name:
   * those of each module read or deployed, and the dependencies each read module was stored with.
   */
  get definitions(): ReadonlyMap<string, LoadedDefinition> {
    for (const defs of this.pending) for (const d of defs) this.merged.set(d.key, d);
    this.pending.length = 0;
    return this.merged;
  }

  /**
   * How many definitions are loaded: a single list merged into nothing counts as it is (a
   * module's own definitions and its dependencies are distinct).
   */
  private loadedCount(): number {
    if (this.merged.size === 0 && this.pending.length === 1) return this.pending[0]!.length;
    return this.definitions.size;
  }

  /**
   * Forgets what the transaction loaded (at the end of a REPL transaction); only the REPL's own
   * top-level definitions stay.
   */
  reset(): void {
    this.modules.clear();
    this.pending.length = 0;
    this.merged.clear();
    for (const [name, def] of this.toplevel) {
      if (def.module.hash !== REPL_MODULE_HASH) this.toplevel.delete(name);
    }
    this.namespace = null;
  }
}
