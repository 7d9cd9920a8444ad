/**
 * The runtime representation of Pact values, shared by the interpreter, the JSON codec,
 * the command format and the node. Chosen for speed: the common scalars are JS primitives
 * (`string`, `boolean`, `bigint` for Pact's unbounded integers), lists are arrays, objects are
 * Maps, and everything else is a small tagged record.
 */
import type { Decimal } from "./decimal.ts";
import type { PactTime } from "./time.ts";

export type PactValue =
  | string
  | boolean
  | bigint
  | Decimal
  | PactTime
  | PactList
  | PactObject
  | Guard
  | ModRef
  | CapToken
  | TableRef
  | Unit;

export type PactList = readonly PactValue[];
/** The values represented by a record with a `kind` tag. */
export type TaggedValue = Guard | ModRef | CapToken | TableRef | Unit;
/** Field name → value. Insertion order carries no meaning: encoders pick the order the wire needs. */
export type PactObject = ReadonlyMap<string, PactValue>;

export interface Unit {
  readonly kind: "unit";
}
export const UNIT: Unit = Object.freeze({ kind: "unit" });

/** A module's (or interface's) name, optionally inside a namespace. */
export interface ModuleName {
  readonly namespace: string | null;
  readonly name: string;
}

export type Guard = KeySet | KeySetRef | UserGuard | CapabilityGuard | ModuleGuard | PactGuard;

const GUARD_KINDS: ReadonlySet<unknown> = new Set<Guard["kind"]>([
  "keyset",
  "keyset-ref",
  "user-guard",
  "capability-guard",
  "module-guard",
  "pact-guard",
]);

/** Whether `v` (any value, a function included) is a guard of one of the six kinds. */
export function isGuard(v: unknown): v is Guard {
  return typeof v === "object" && v !== null && GUARD_KINDS.has((v as { kind?: unknown }).kind);
}

export interface KeySet {
  readonly kind: "keyset";
  /** Public keys (usually 64 hex characters), sorted and without duplicates. */
  readonly keys: readonly string[];
  /** `keys-all`, `keys-any`, `keys-2`, or the qualified name of a user predicate. */
  readonly pred: string;
}

export interface KeySetRef {
  readonly kind: "keyset-ref";
  readonly namespace: string | null;
  readonly name: string;
}

export interface UserGuard {
  readonly kind: "user-guard";
  /** Fully qualified function name, e.g. `free.m.f` or `m.f`. */
  readonly fun: string;
  readonly args: PactList;
}

export interface CapabilityGuard {
  readonly kind: "capability-guard";
  /** Fully qualified capability name, e.g. `coin.TRANSFER`. */
  readonly name: string;
  readonly args: PactList;
  readonly pactId: string | null;
}

export interface ModuleGuard {
  readonly kind: "module-guard";
  readonly module: ModuleName;
  readonly name: string;
}

export interface PactGuard {
  readonly kind: "pact-guard";
  readonly pactId: string;
  readonly name: string;
}

export interface ModRef {
  readonly kind: "modref";
  readonly module: ModuleName;
  /** The interfaces the reference is typed by (`module{iface}`); may be empty. */
  readonly interfaces: readonly ModuleName[];
}

export interface CapToken {
  readonly kind: "cap-token";
  /** Qualified capability name without the module hash, e.g. `coin.TRANSFER`. */
  readonly name: string;
  /** Hash (unpadded base64url) of the module defining the capability; JSON writes `name.{hash}`. */
  readonly moduleHash: string;
  readonly args: PactList;
}

export interface TableRef {
  readonly kind: "table";
  readonly module: ModuleName;
  readonly name: string;
  /** Hash (unpadded base64url) of the defining module. */
  readonly moduleHash: string;
  /** The row type the table was declared with. */
  readonly schema: Schema;
}

/** A named row type: `(defschema name field:type …)`. */
export interface Schema {
  /** Qualified schema name, e.g. `free.m.account-schema`. */
  readonly name: string;
  readonly fields: ReadonlyMap<string, PactType>;
}

export type PrimType = "integer" | "decimal" | "bool" | "string" | "guard" | "time" | "unit";

/**
 * Pact's types as they appear in schemas: a primitive; `list`, `object`, `*` (any) and
 * `cap-token` without parameters; or a list of, object of, table of, or module reference.
 */
export type PactType =
  | PrimType
  | "list"
  | "object"
  | "*"
  | "cap-token"
  | { readonly kind: "list"; readonly element: PactType }
  | { readonly kind: "object"; readonly schema: Schema }
  | { readonly kind: "table"; readonly schema: Schema }
  | { readonly kind: "modref"; readonly interfaces: readonly ModuleName[] };
