/**
 * Where defined modules and interfaces live between top-level forms and transactions. The
 * compiler and evaluator read modules only through this interface; src/pact/eval/module-store.ts
 * keeps them in the contract database (memory or SQLite) with compiled modules cached by hash.
 */
import type { ModuleInstall } from "../db/index.ts";
import type { LoadedModule } from "./ir.ts";

export interface ModuleStore {
  /** The current version of a module or interface, by its rendered name (`ns.m` or `m`). */
  read(name: string): LoadedModule | undefined;
  /**
   * Installs a module or interface (a new one, or a new version replacing the old); `install`
   * when a transaction installs it (null for `static-redeploy`).
   */
  write(module: LoadedModule, install: ModuleInstall | null): void;
  /** Every stored name, sorted (for `list-modules`). */
  names(): readonly string[];
}
