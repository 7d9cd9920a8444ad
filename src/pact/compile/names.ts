/** How Pact writes module and member names. */
import { REPL_MODULE_HASH, renderModuleName } from "../values/names.ts";
import type { ModuleName } from "../values/types.ts";

export { REPL_MODULE_HASH, renderModuleName };

/** `ns.m.member` or `m.member`. */
export function qualifiedName(module: ModuleName, member: string): string {
  return `${renderModuleName(module)}.${member}`;
}

export function sameModuleName(a: ModuleName, b: ModuleName): boolean {
  return a.name === b.name && a.namespace === b.namespace;
}

/** The pseudo-module that owns `defun`s and `defconst`s written at the top level of a `.repl` file. */
export const REPL_MODULE_NAME: ModuleName = Object.freeze({ namespace: null, name: "#repl" });
