/**
 * Modules in the contract database. A module is stored as JSON holding its source text, where it
 * came from (so a reloaded module reports the same lines), the values of its constants (evaluated
 * once, at definition), and the top-level names its code was bound to. Compiled modules are
 * cached per database by name and hash, so a module is compiled once per process; a module not in
 * the cache (after a restart) is compiled again from its stored form.
 */
import type { NameResolver } from "../compile/context.ts";
import { DefConstDef, type Definition, type LoadedModule } from "../compile/ir.ts";
import { compileInterface, compileModule } from "../compile/module.ts";
import {
  recordSizes,
  recordStoredBytes,
  storedBytes,
} from "../compile/module-hash/dependencies.ts";
import { interfaceSizes, moduleSizes } from "../compile/module-hash/sizes.ts";
import type { ModuleStore } from "../compile/module-store.ts";
import { renderModuleName } from "../compile/names.ts";
import type { ModuleInstall, PactDb } from "../db/index.ts";
import { moduleDataBytes } from "../db/stored-bytes.ts";
import type { NativeDef } from "../runtime/types.ts";
import type { Interface, Module } from "../syntax/ast.ts";
import { parseProgram } from "../syntax/parser.ts";
import { encodePactValue, parsePactValue } from "../values/json.ts";
import type { ModuleName } from "../values/types.ts";

/** Bumped when the stored form changes. */
export const MODULE_FORMAT_VERSION = 1;

interface StoredForm {
  readonly v: number;
  readonly namespace: string | null;
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly code: string;
  /** Top-level name → [module, member, module hash]. */
  readonly names: Record<string, [string, string, string]>;
  /** Constant name → its value in Pact's JSON encoding. */
  readonly consts: Record<string, string>;
  /** The hash of the transaction that installed the module. */
  readonly txHash?: string;
  /**
   * The length of the module's bytes as Pact 5 stores them, where Braid wrote them: what reading
   * the module costs (Pact charges a module's load by its stored length).
   */
  readonly pactBytes?: number;
}

const caches = new WeakMap<object, Map<string, LoadedModule>>();

function cacheOf(db: PactDb): Map<string, LoadedModule> {
  const key = db.compiledModulesKey ?? db;
  let cache = caches.get(key);
  if (cache === undefined) {
    cache = new Map();
    caches.set(key, cache);
  }
  return cache;
}

export class DbModuleStore implements ModuleStore {
  constructor(
    readonly db: PactDb,
    /** The natives a stored module's code is compiled against when it is reloaded. */
    private readonly natives: ReadonlyMap<string, NativeDef>,
  ) {}

  read(name: string): LoadedModule | undefined {
    const stored = this.db.readModule(name);
    if (stored === null) return undefined;
    const cache = cacheOf(this.db);
    const key = `${name}:${stored.hash}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const module = this.decode(stored.code, stored.hash);
    cache.set(key, module);
    return module;
  }

  write(module: LoadedModule, install: ModuleInstall | null): void {
    const name = module.info.rendered;
    const pactData = install?.pactData ?? null;
    if (pactData !== null) recordStoredBytes(module, moduleDataBytes(pactData).byteLength);
    this.db.writeModule(name, { hash: module.info.hash, code: encodeStored(module) }, install);
    cacheOf(this.db).set(`${name}:${module.info.hash}`, module);
  }

  names(): readonly string[] {
    return this.db.moduleNames();
  }

  /** Compiles a stored module again, with its constants' stored values. */
  private decode(text: string, hash: string): LoadedModule {
    const form = JSON.parse(text) as StoredForm;
    if (form.v !== MODULE_FORMAT_VERSION) {
      throw new Error(`unsupported stored module format ${String(form.v)}`);
    }
    // Padding puts the code at its original line and column, so spans match the source file.
    const source = `${"\n".repeat(form.line)}${" ".repeat(form.col)}${form.code}`;
    const [tree] = parseProgram(source, form.file);
    const names: NameResolver = {
      namespace: form.namespace,
      current: null,
      module: (n: ModuleName) => this.read(renderModuleName(n)),
      bare: (n: string) => this.boundName(form.names[n]),
    };
    const unit = { file: form.file, source, natives: this.natives, names, coverage: null };
    if (tree?.kind !== "module" && tree?.kind !== "interface") {
      throw new Error("stored module code is not a module");
    }
    const module =
      tree.kind === "module" ? compileModule(tree, unit) : compileInterface(tree, unit);
    module.info.hash = hash;
    if (form.txHash !== undefined) module.info.txHash = form.txHash;
    for (const def of module.defs.values()) {
      if (def instanceof DefConstDef) {
        const value = form.consts[def.name];
        if (value !== undefined) {
          def.value = parsePactValue(value);
          def.init = undefined;
        }
      }
    }
    // Its sizes, for the gas of loading it and of deploying modules that depend on it.
    recordSizes(
      module,
      module.kind === "module"
        ? moduleSizes(tree as Module, module, unit)
        : interfaceSizes(tree as Interface, module, unit),
    );
    if (form.pactBytes !== undefined) recordStoredBytes(module, form.pactBytes);
    return module;
  }

  /** A top-level name a stored module was bound to: that member of the module's current version. */
  private boundName(entry: [string, string, string] | undefined): Definition | undefined {
    if (entry === undefined) return undefined;
    const [module, member] = entry;
    return this.read(module)?.defs.get(member);
  }
}

function encodeStored(module: LoadedModule): string {
  const names: Record<string, [string, string, string]> = {};
  for (const [n, def] of module.toplevelNames) {
    names[n] = [def.module.rendered, def.name, def.module.hash];
  }
  const consts: Record<string, string> = {};
  for (const def of module.defs.values()) {
    if (def instanceof DefConstDef && def.value !== undefined) {
      consts[def.name] = encodePactValue(def.value);
    }
  }
  const span = module.source.span;
  const pactBytes = storedBytes(module);
  const form: StoredForm = {
    v: MODULE_FORMAT_VERSION,
    namespace: module.info.name.namespace,
    file: module.source.file,
    line: span.line,
    col: span.col,
    code: module.code,
    names,
    consts,
    ...(module.info.txHash === undefined ? {} : { txHash: module.info.txHash }),
    ...(pactBytes === null ? {} : { pactBytes }),
  };
  return JSON.stringify(form);
}
