/**
 * A module's outline for the explorer's module view, read from its source text (what
 * `describe-module` gives): its governance, the interfaces it implements, its functions and
 * defpacts with their signatures, capabilities (managed or not, events), schemas, tables with
 * their schema's fields, and constants. Only the parse tree is read: nothing is resolved or run.
 */
import { PactSyntaxError, parseProgram, type TopLevel } from "../../pact/index.ts";
import type { ModuleName } from "../../pact/values/index.ts";

type ModuleForm = Extract<TopLevel, { kind: "module" }>;
type InterfaceForm = Extract<TopLevel, { kind: "interface" }>;
type Definition = ModuleForm["defs"][number] | InterfaceForm["defs"][number];
type Parameter = Extract<Definition, { kind: "defun" }>["params"][number];
type PactType = NonNullable<Parameter["type"]>;
type SchemaForm = Extract<Definition, { kind: "defschema" }>;

export interface TypedName {
  readonly name: string;
  /** Pact's notation (`integer`, `[string]`, `object{account}`); null when not written. */
  readonly type: string | null;
}

export interface FunctionOutline {
  readonly name: string;
  readonly kind: "defun" | "defpact";
  readonly params: readonly TypedName[];
  readonly returns: string | null;
  readonly doc: string | null;
}

export interface CapabilityOutline {
  readonly name: string;
  readonly params: readonly TypedName[];
  /** `auto` for `@managed` alone, `param manager-fn` for `@managed param manager-fn`, else null. */
  readonly managed: string | null;
  readonly event: boolean;
  readonly doc: string | null;
}

export interface ModuleOutline {
  readonly kind: "module" | "interface";
  /** A keyset's name or a capability's name; null for an interface. */
  readonly governance: { readonly kind: "keyset" | "capability"; readonly name: string } | null;
  readonly implements: readonly string[];
  readonly functions: readonly FunctionOutline[];
  readonly capabilities: readonly CapabilityOutline[];
  readonly schemas: readonly { readonly name: string; readonly fields: readonly TypedName[] }[];
  /** Each table with its schema's name and, when the schema is this module's, its fields. */
  readonly tables: readonly {
    readonly name: string;
    readonly schema: string;
    readonly fields: readonly TypedName[] | null;
  }[];
  readonly constants: readonly TypedName[];
}

const moduleText = (m: ModuleName) => (m.namespace === null ? m.name : `${m.namespace}.${m.name}`);

function typeNameText(name: { kind: "bare"; name: string } | { kind: string }): string {
  if (name.kind === "bare") return (name as { name: string }).name;
  const qualified = name as { module?: ModuleName; name?: string; ref?: string };
  if (qualified.module !== undefined) return `${moduleText(qualified.module)}.${qualified.name}`;
  return `${qualified.ref}::${qualified.name}`;
}

/** A type annotation in Pact's notation. */
export function typeText(type: PactType | null): string | null {
  if (type === null) return null;
  switch (type.kind) {
    case "prim":
      return type.name;
    case "list":
      return `[${typeText(type.elem)}]`;
    case "any-list":
      return "list";
    case "object":
      return `object{${typeNameText(type.schema)}}`;
    case "any-object":
      return "object";
    case "table":
      return `table{${typeNameText(type.schema)}}`;
    case "modref":
      return `module{${type.interfaces.map(moduleText).join(", ")}}`;
    case "any":
      return null;
  }
}

const typed = (args: readonly { name: string; type: PactType | null }[]): TypedName[] =>
  args.map((a) => ({ name: a.name, type: typeText(a.type) }));

function docOf(annotations: readonly { kind: string; text?: string }[]): string | null {
  return annotations.find((a) => a.kind === "doc")?.text ?? null;
}

function managedText(def: Extract<Definition, { kind: "defcap" }>): string | null {
  if (def.meta?.kind !== "managed") return null;
  const manager = def.meta.manager;
  return manager === null ? "auto" : `${manager.param} ${typeNameText(manager.fn)}`;
}

function outlineOf(form: ModuleForm | InterfaceForm): ModuleOutline {
  const defs: readonly Definition[] = form.defs;
  const schemas = defs.filter((d): d is SchemaForm => d.kind === "defschema");
  const functions: FunctionOutline[] = [];
  const capabilities: CapabilityOutline[] = [];
  const tables: ModuleOutline["tables"][number][] = [];
  const constants: TypedName[] = [];
  for (const def of defs) {
    switch (def.kind) {
      case "defun":
      case "defpact":
        functions.push({
          name: def.name,
          kind: def.kind,
          params: typed(def.params),
          returns: typeText(def.returnType),
          doc: docOf(def.annotations),
        });
        break;
      case "defcap":
        capabilities.push({
          name: def.name,
          params: typed(def.params),
          managed: managedText(def),
          event: def.meta?.kind === "event",
          doc: docOf(def.annotations),
        });
        break;
      case "deftable": {
        const schema = typeNameText(def.schema);
        const own = schemas.find((s) => s.name === schema);
        tables.push({
          name: def.name,
          schema,
          fields: own === undefined ? null : typed(own.fields),
        });
        break;
      }
      case "defconst":
        constants.push({ name: def.name, type: typeText(def.type) });
        break;
      case "defschema":
        break;
    }
  }
  return {
    kind: form.kind,
    governance:
      form.kind === "interface"
        ? null
        : form.governance.kind === "keyset"
          ? { kind: "keyset", name: form.governance.keyset }
          : { kind: "capability", name: form.governance.name },
    implements:
      form.kind === "interface"
        ? []
        : form.extensions.flatMap((e) =>
            e.kind === "implements" ? [moduleText(e.interface)] : [],
          ),
    functions,
    capabilities,
    schemas: schemas.map((s) => ({ name: s.name, fields: typed(s.fields) })),
    tables,
    constants,
  };
}

/** The outline of the first module or interface in `code`, or why there is none. */
export function moduleOutline(code: string): ModuleOutline | { problem: string } {
  let program: TopLevel[];
  try {
    program = parseProgram(code);
  } catch (e) {
    if (e instanceof PactSyntaxError) return { problem: `the code does not parse: ${e.message}` };
    throw e;
  }
  const form = program.find(
    (t): t is ModuleForm | InterfaceForm => t.kind === "module" || t.kind === "interface",
  );
  return form === undefined ? { problem: "the code holds no module" } : outlineOf(form);
}
