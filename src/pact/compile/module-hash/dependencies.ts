/**
 * The definitions of other modules a module depends on, as Pact 5 stores them with the module
 * (`getAllTransitiveDependencies`), and the gas its walk counts.
 *
 * Pact starts from the module's own definitions and, taking the smallest fully qualified name
 * (module, name, hash) first, visits the term of every defun, capability and defpact: 5 milligas
 * per term node, and per top-level name mentioned a set search (⌈ln size⌉ × 200 over the found
 * set), with two more (found set and work list) when the name is new. At the end it adds the
 * cost of restricting the transaction's loaded definitions to those found:
 * ⌈m · ln(n/m + 1)⌉ × 200 for m found among n loaded.
 *
 * Each module's sizes (sizes.ts) are recorded here when it is compiled, deployed or read from
 * storage, with the dependencies it was stored with.
 */

import { hashBytes } from "../../values/cbor-values.ts";
import { compareModuleNames } from "../../values/json.ts";
import type { PactValue } from "../../values/types.ts";
import { DefConstDef, type LoadedModule } from "../ir.ts";
import {
  DEPENDENCY_ENTRY_OVERHEAD,
  type DefinitionSizes,
  definitionSize,
  HASH_SIZE,
  type Measure,
  MODULE_DATA_OVERHEAD,
  type ModuleSizes,
  moduleSize,
  type QualifiedRef,
  qualifiedRefSize,
} from "./sizes.ts";
import { compareText } from "./text-order.ts";

/** Milligas per comparison of fully qualified names. */
const COMPARISON_MILLIGAS = 200;
/** Milligas per term node visited. */
const TERM_MILLIGAS = 5;

/** A definition the transaction has loaded: its name, sizes and (for a constant) value. */
export interface LoadedDefinition {
  readonly ref: QualifiedRef;
  /** `refKey(ref)`, made once: transactions merge the same definitions again and again. */
  readonly key: string;
  readonly sizes: DefinitionSizes;
  readonly value: PactValue | undefined;
}

export function refKey(ref: QualifiedRef): string {
  return `${ref.module.rendered} ${ref.name} ${ref.module.hash}`;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Haskell's derived `Ord FullyQualifiedName`: module, name, hash. */
export function compareRefs(a: QualifiedRef, b: QualifiedRef): number {
  return (
    compareModuleNames(a.module.name, b.module.name) ||
    compareText(a.name, b.name) ||
    compareBytes(hashBytes(a.module.hash), hashBytes(b.module.hash))
  );
}

/** ⌈ln n⌉ comparisons: a search or insertion in a set of n. */
function setSearch(n: number): number {
  return n === 0 ? 0 : Math.ceil(Math.log(n)) * COMPARISON_MILLIGAS;
}

/** Restricting `loaded` definitions to `found` keys. */
function restrictCost(loaded: number, found: number): number {
  if (loaded === 0 || found === 0) return 0;
  return Math.ceil(found * Math.log(loaded / found + 1)) * COMPARISON_MILLIGAS;
}

export interface DependencyWalk {
  /** What the walk counted. */
  readonly milligas: number;
  /** The definitions of other modules found, in name order. */
  readonly dependencies: readonly LoadedDefinition[];
}

/**
 * Pact's transitive-dependency walk from `own` (the new module's definitions) over `loaded` (every
 * definition the transaction has loaded, the new module's included, by {@link refKey}). Each
 * definition enters the work list at most once, so the walk ends after at most `loaded.size`
 * steps.
 */
export function walkDependencies(
  own: readonly LoadedDefinition[],
  loaded: ReadonlyMap<string, LoadedDefinition>,
): DependencyWalk {
  const found = new Map<string, LoadedDefinition>();
  const work: LoadedDefinition[] = [];
  for (const d of own) {
    found.set(d.key, d);
    work.push(d);
  }
  let milligas = 0;
  while (work.length > 0) {
    let min = 0;
    for (let i = 1; i < work.length; i++) {
      if (compareRefs(work[i]!.ref, work[min]!.ref) < 0) min = i;
    }
    const next = work.splice(min, 1)[0]!;
    if (!next.sizes.hasDependents) continue;
    milligas += next.sizes.terms * TERM_MILLIGAS;
    for (const ref of next.sizes.refs) {
      milligas += setSearch(found.size);
      const key = refKey(ref);
      if (found.has(key)) continue;
      // Pact fails on a name it has not loaded (an invariant); a name Braid resolved outside
      // the loaded modules (a REPL definition) is not a stored dependency.
      const def = loaded.get(key);
      if (def === undefined) continue;
      milligas += setSearch(found.size) + setSearch(work.length);
      found.set(key, def);
      work.push(def);
    }
  }
  milligas += restrictCost(loaded.size, found.size);
  const ownKeys = new Set(own.map((d) => d.key));
  const dependencies = [...found.entries()]
    .filter(([k]) => !ownKeys.has(k))
    .map(([, d]) => d)
    .sort((a, b) => compareRefs(a.ref, b.ref));
  return { milligas, dependencies };
}

// ---------------------------------------------------------------------------------------------
// Recorded modules

interface ModuleRecord {
  readonly sizes: ModuleSizes;
  /** The module's own definitions, made on first use. */
  own: readonly LoadedDefinition[] | null;
  dependencies: readonly LoadedDefinition[] | null;
  /** {@link storedSize} with its recorded dependencies, by measure (see {@link readSize}). */
  readonly storedSizes: Map<string, number>;
  /** The length of the module's stored bytes in Pact 5's form, where Braid wrote them. */
  storedBytes: number | null;
}

const records = new WeakMap<LoadedModule, ModuleRecord>();

/** Records a compiled module's sizes; `dependencies` when they are known (deployed here). */
export function recordSizes(
  module: LoadedModule,
  sizes: ModuleSizes,
  dependencies: readonly LoadedDefinition[] | null = null,
): void {
  records.set(module, {
    sizes,
    own: null,
    dependencies,
    storedSizes: new Map(),
    storedBytes: null,
  });
}

/**
 * Records the length of a module's stored bytes as Pact 5 writes them (its `ModuleData`
 * document), for the gas of reading it back ({@link storedBytes}).
 */
export function recordStoredBytes(module: LoadedModule, length: number): void {
  const r = records.get(module);
  if (r !== undefined) r.storedBytes = length;
}

/** The length recorded by {@link recordStoredBytes}, if any. */
export function storedBytes(module: LoadedModule): number | null {
  return records.get(module)?.storedBytes ?? null;
}

export function recordedSizes(module: LoadedModule): ModuleSizes | undefined {
  return records.get(module)?.sizes;
}

export function recordDependencies(
  module: LoadedModule,
  dependencies: readonly LoadedDefinition[],
): void {
  const r = records.get(module);
  if (r !== undefined) {
    r.dependencies = dependencies;
    r.storedSizes.clear();
  }
}

/**
 * The stored size of a recorded module read from storage, with its stored dependencies, measured
 * by `m`; remembered, since every transaction that uses a module pays for reading it.
 */
export function readSize(
  module: LoadedModule,
  resolve: (ref: QualifiedRef) => LoadedModule | undefined,
  m: Measure,
): number | undefined {
  const r = records.get(module);
  if (r === undefined) return undefined;
  const key = `${m.infoBytes} ${m.builtinBytes} ${m.ownHashBytes}`;
  let size = r.storedSizes.get(key);
  if (size === undefined) {
    size = storedSize(module, r.sizes, storedDependencies(module, resolve), m);
    r.storedSizes.set(key, size);
  }
  return size;
}

/** A module's own definitions, as loaded definitions (an interface's signatures are not). */
export function ownDefinitions(module: LoadedModule | undefined): readonly LoadedDefinition[] {
  const r = module === undefined ? undefined : records.get(module);
  if (module === undefined || r === undefined) return [];
  if (r.own !== null) return r.own;
  const values = constantValues(module);
  const own: LoadedDefinition[] = [];
  for (const d of r.sizes.defs) {
    if (d.signature) continue;
    const ref = { module: module.info, name: d.name };
    own.push({ ref, key: refKey(ref), sizes: d, value: values(d.name) });
  }
  // Only once the constants are evaluated: their values are part of what is loaded.
  if (module.info.hash !== "") r.own = own;
  return own;
}

/**
 * The dependencies a module was stored with. A module read from storage is compiled again, so
 * they are found again, resolving each module by name (`resolve`): its current version stands
 * for the one the module was deployed against.
 */
export function storedDependencies(
  module: LoadedModule,
  resolve: (ref: QualifiedRef) => LoadedModule | undefined,
): readonly LoadedDefinition[] {
  const r = records.get(module);
  if (r === undefined) return [];
  if (r.dependencies !== null) return r.dependencies;
  const own = ownDefinitions(module);
  const loaded = new Map<string, LoadedDefinition>();
  for (const d of own) loaded.set(d.key, d);
  const pending = [...own];
  while (pending.length > 0) {
    const d = pending.pop()!;
    if (!d.sizes.hasDependents) continue;
    for (const ref of d.sizes.refs) {
      const key = refKey(ref);
      if (loaded.has(key)) continue;
      const found = ownDefinitions(resolve(ref)).find((o) => o.ref.name === ref.name);
      if (found === undefined) continue;
      loaded.set(key, found);
      pending.push(found);
    }
  }
  const ownKeys = new Set(own.map((d) => d.key));
  const deps = [...loaded.entries()].filter(([k]) => !ownKeys.has(k)).map(([, d]) => d);
  r.dependencies = deps;
  return deps;
}

/** A constant's value by name, for {@link moduleSize}. */
export function constantValues(module: LoadedModule): (name: string) => PactValue | undefined {
  return (name) => {
    const def = module.defs.get(name);
    return def instanceof DefConstDef ? def.value : undefined;
  };
}

/**
 * The size of the stored module data (`ModuleData`/`InterfaceData`): the module measured by `m`,
 * and each dependency with its fully qualified name (their own hashes are real ones).
 */
export function storedSize(
  module: LoadedModule,
  sizes: ModuleSizes,
  dependencies: readonly LoadedDefinition[],
  m: Measure,
): number {
  let n = MODULE_DATA_OVERHEAD + moduleSize(sizes, constantValues(module), m);
  const dm = { ...m, ownHashBytes: HASH_SIZE };
  for (const d of dependencies) {
    n += DEPENDENCY_ENTRY_OVERHEAD + qualifiedRefSize(d.ref) + definitionSize(d.sizes, d.value, dm);
  }
  return n;
}

/** The other modules (rendered names) whose members the definitions of `module` name. */
export function modulesNamed(module: LoadedModule, sizes: ModuleSizes): Set<string> {
  const modules = new Set<string>();
  for (const d of sizes.defs) {
    for (const ref of d.refs) if (ref.module !== module.info) modules.add(ref.module.rendered);
  }
  return modules;
}

/**
 * The dependencies an interface is stored with: every loaded definition of the modules its
 * constants name (Pact keeps the loaded definitions of each module its renaming looked into).
 */
export function interfaceDependencies(
  iface: LoadedModule,
  sizes: ModuleSizes,
  loaded: ReadonlyMap<string, LoadedDefinition>,
): readonly LoadedDefinition[] {
  const modules = modulesNamed(iface, sizes);
  if (modules.size === 0) return [];
  return [...loaded.values()].filter((d) => modules.has(d.ref.module.rendered));
}
