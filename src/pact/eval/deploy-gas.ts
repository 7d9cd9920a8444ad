/**
 * Deployment and module-loading gas, in the order Pact 5 charges it (docs/gas.md, "Deploying
 * modules"): the sizes are those of src/pact/compile/module-hash/sizes.ts, measured with the
 * environment's module representation; the charges are src/pact/gas/modules.ts.
 */
import type { LoadedModule } from "../compile/ir.ts";
import {
  constantValues,
  interfaceDependencies,
  type LoadedDefinition,
  ownDefinitions,
  readSize,
  recordDependencies,
  recordedSizes,
  storedBytes,
  storedDependencies,
  storedSize,
  walkDependencies,
} from "../compile/module-hash/dependencies.ts";
import {
  HASH_SIZE,
  INTERFACE_PLACEHOLDER_SIZE,
  type Measure,
  MODULE_PLACEHOLDER_SIZE,
  type ModuleSizes,
  moduleSize,
  type QualifiedRef,
} from "../compile/module-hash/sizes.ts";
import {
  CHAIN_MODULE_REPRESENTATION,
  chargeMergeDependencies,
  chargeModuleDesugar,
  chargeModuleHash,
  chargeModuleLoad,
  chargeModuleWrite,
  chargeTransitiveDependencies,
  type ModuleRepresentation,
} from "../gas/index.ts";
import type { ExecutionEnv } from "./env.ts";
import type { DefinitionMerge, LoadedNames } from "./loaded.ts";

function representation(env: ExecutionEnv): ModuleRepresentation {
  return env.moduleRepresentation ?? CHAIN_MODULE_REPRESENTATION;
}

/** Before the module is hashed: no source information, the placeholder for its own hash. */
function unhashed(env: ExecutionEnv, module: LoadedModule): Measure {
  return {
    infoBytes: 0,
    builtinBytes: representation(env).builtinBytes,
    ownHashBytes: module.kind === "module" ? MODULE_PLACEHOLDER_SIZE : INTERFACE_PLACEHOLDER_SIZE,
  };
}

/** As stored: with source information and the real hash. */
function stored(rep: ModuleRepresentation, infoBytes: number): Measure {
  return { infoBytes, builtinBytes: rep.builtinBytes, ownHashBytes: HASH_SIZE };
}

/** Desugaring and renaming a compiled module whose constants are not evaluated yet. */
export function chargeDesugar(env: ExecutionEnv, module: LoadedModule, sizes: ModuleSizes): void {
  if (env.gas.charging !== true) return;
  chargeModuleDesugar(
    env.gas,
    moduleSize(sizes, () => undefined, unhashed(env, module)),
  );
}

/** Hashing a module whose constants are evaluated. */
export function chargeHash(env: ExecutionEnv, module: LoadedModule, sizes: ModuleSizes): void {
  if (env.gas.charging !== true) return;
  chargeModuleHash(env.gas, moduleSize(sizes, constantValues(module), unhashed(env, module)));
}

/**
 * Storing a hashed module: its own definitions join the transaction's loaded ones, a module's
 * dependencies are walked (an interface's are those of the modules its constants name) and kept
 * with it, then the stored data is charged. Without gas
 * counted nothing is walked; the dependencies are found when they are needed.
 */
export function chargeStore(
  env: ExecutionEnv,
  loaded: LoadedNames,
  module: LoadedModule,
  sizes: ModuleSizes,
): void {
  if (env.gas.charging !== true) return;
  let dependencies: readonly LoadedDefinition[];
  if (module.kind === "module") {
    const own = ownDefinitions(module);
    loaded.addDefinitions(own);
    const walk = walkDependencies(own, loaded.definitions);
    chargeTransitiveDependencies(env.gas, walk.milligas);
    dependencies = walk.dependencies;
  } else {
    dependencies = interfaceDependencies(module, sizes, loaded.definitions);
  }
  recordDependencies(module, dependencies);
  const rep = representation(env);
  chargeModuleWrite(env.gas, storedSize(module, sizes, dependencies, stored(rep, rep.infoBytes)));
}

/**
 * A module read from storage: its stored encoding's length, then merging what it adds into the
 * loaded definitions, if it does. On a chain the length is the real one where Braid wrote the
 * module in Pact 5's form; else (a module naming other modules' members, or the REPL's form) it
 * is estimated by the module's size with each `info` field counted as encoded.
 */
export function chargeRead(
  env: ExecutionEnv,
  module: LoadedModule,
  merge: DefinitionMerge | null,
): void {
  if (env.gas.charging !== true) return;
  const rep = representation(env);
  const bytes =
    (rep === CHAIN_MODULE_REPRESENTATION ? storedBytes(module) : null) ??
    readSize(
      module,
      (ref: QualifiedRef) => env.modules.read(ref.module.rendered),
      stored(rep, rep.encodedInfoBytes(module.source.file)),
    );
  if (bytes === undefined) return;
  chargeModuleLoad(env.gas, bytes);
  if (merge !== null) chargeMergeDependencies(env.gas, merge.loaded, merge.added);
}

/**
 * `static-redeploy` writing a stored module's data again: its size as stored, with its
 * dependencies, as a deploy's write charges it.
 */
export function chargeRewrite(env: ExecutionEnv, module: LoadedModule): void {
  const sizes = recordedSizes(module);
  if (env.gas.charging !== true || sizes === undefined) return;
  const rep = representation(env);
  const dependencies = storedDependencies(module, (ref) => env.modules.read(ref.module.rendered));
  chargeModuleWrite(env.gas, storedSize(module, sizes, dependencies, stored(rep, rep.infoBytes)));
}
