/**
 * Database natives: tables (`create-table`, `describe-table`), rows (`insert`, `write`,
 * `update`, `read`, `with-read`, `with-default-read`), listings (`keys`, `select`, `fold-db`) and
 * modules (`describe-module`, `list-modules`, `static-redeploy`).
 *
 * Every table access follows Pact's `guardTable`: code outside the table's module needs the
 * module's admin (except reads, keys and selects with the flag `AllowReadInLocal`), and the
 * table's module hash must be the module's current one or blessed by it. Writes are checked
 * against the table's schema (all fields for `insert`/`write`, the given ones for `update`).
 * Row keys are strings; listings are in ascending key order.
 */

import { renderType } from "../compile/types.ts";
import { userTableName } from "../db/index.ts";
import { type CallSite, runtimeOf } from "../eval/callables.ts";
import { chargeRewrite } from "../eval/deploy-gas.ts";
import type { Runtime } from "../eval/runtime.ts";
import { matchesType } from "../eval/typecheck.ts";
import { BASIC_WORK_GAS } from "../gas/costs.ts";
import { chargeModuleSourceWrite, chargeRowRead } from "../gas/index.ts";
import { PactError } from "../runtime/errors.ts";
import {
  argsError,
  boolResult,
  moduleAdminNotAcquired,
  nativeFailure,
} from "../runtime/native-errors.ts";
import {
  type Callable,
  isCallable,
  type NativeContext,
  type NativeDef,
  type RuntimeValue,
} from "../runtime/types.ts";
import { parseModuleName, renderModuleName } from "../values/names.ts";
import { pactValueToPretty } from "../values/show.ts";
import { compareCodePoints } from "../values/text.ts";
import {
  type PactList,
  type PactObject,
  type PactValue,
  type Schema,
  type TableRef,
  UNIT,
} from "../values/types.ts";
import {
  assertLocalAllowed,
  assertTopLevel,
  dbOperation,
  requireImpure,
  requireUserRead,
} from "./db-access.ts";
import { METADATA_GAS } from "./keysets.ts";

/** Flat costs (the reference's table, milligas). */
export const CREATE_TABLE_GAS = 250_000;
export const READ_GAS = 2_500;
export const WRITE_GAS = 25_000;
/** `keys`, `select` and `fold-db` read a whole table. */
export const SELECT_GAS = 40_000_000;

// ---------------------------------------------------------------------------------------------
// Table access rules

/** What a native does to a table (Pact's `GuardTableOp`). */
type TableOp = "read" | "write" | "create";

/**
 * Pact's `guardTable`: outside the table's module, the module's admin is needed (reads, keys and
 * selects skip the check with the flag `AllowReadInLocal`); the table must belong to the current
 * version of its module or to one it blesses.
 */
function guardTable(rt: Runtime, table: TableRef, op: TableOp, site: CallSite): void {
  if (op === "read" && rt.env.flags.has("AllowReadInLocal")) return;
  const name = renderModuleName(table.module);
  if (rt.callingModule() !== name && !rt.caps.moduleAdmin.has(name)) {
    throw moduleAdminNotAcquired(name);
  }
  const module = rt.getModule(table.module, site);
  if (
    module.kind === "module" &&
    module.info.hash !== table.moduleHash &&
    !module.blessed.has(table.moduleHash)
  ) {
    throw new PactError(
      "execution",
      `Execution aborted, hash not blessed for module ${name}: ${table.moduleHash}`,
    );
  }
}

/** Whether `row` fits the schema: every field (or, `partial`, the given ones) of its type. */
function matchesSchema(row: PactObject, schema: Schema, partial: boolean): boolean {
  if (!partial && row.size !== schema.fields.size) return false;
  for (const [field, value] of row) {
    const type = schema.fields.get(field);
    if (type === undefined || !matchesType(value, type)) return false;
  }
  return true;
}

/** Pact's `WriteValueDidNotMatchSchema`. */
function schemaMismatch(schema: Schema, row: PactObject): PactError {
  const fields = [...schema.fields]
    .sort((a, b) => compareCodePoints(a[0], b[0]))
    .map(([f, t]) => `"${f}": ${renderType(t)}`)
    .join(",");
  return new PactError(
    "execution",
    `Attempted insert failed due to schema mismatch. Expected: {${fields}}, received ${pactValueToPretty(row)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Argument checks

function isTable(v: RuntimeValue | undefined): v is TableRef {
  return typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "table";
}

function isObject(v: RuntimeValue | undefined): v is PactObject {
  return v instanceof Map;
}

function isFunction(v: RuntimeValue | undefined): v is Callable {
  return v !== undefined && isCallable(v);
}

/** Field names given to `read` or `select`: strings, else the native's argument error. */
function fieldList(name: string, list: PactList, args: readonly RuntimeValue[]): Set<string> {
  const fields = new Set<string>();
  for (const f of list) {
    if (typeof f !== "string") throw argsError(name, args);
    fields.add(f);
  }
  return fields;
}

function restrict(row: PactObject, fields: ReadonlySet<string>): PactObject {
  const out = new Map<string, PactValue>();
  for (const [k, v] of row) if (fields.has(k)) out.set(k, v);
  return out;
}

function tableName(table: TableRef): string {
  return userTableName(table.module, table.name);
}

// ---------------------------------------------------------------------------------------------
// Reads

/** The row at `key`, or null. */
function readRow(rt: Runtime, table: TableRef, key: string): PactObject | null {
  requireUserRead(rt);
  const row = dbOperation(() => rt.env.db.readRow(tableName(table), key));
  if (row !== null) chargeRowRead(rt.env.gas, row);
  return row;
}

/** The row at `key`; a missing row is Pact's recoverable `NoSuchObjectInDb`. */
function readExisting(rt: Runtime, table: TableRef, key: string): PactObject {
  const row = readRow(rt, table, key);
  if (row === null) {
    throw new PactError("user", `No value found in table ${tableName(table)} for key: ${key}`);
  }
  return row;
}

/** Every row, ascending by key. */
function allRows(rt: Runtime, table: TableRef): Array<readonly [string, PactObject]> {
  requireImpure(rt);
  return dbOperation(() => rt.env.db.rows(tableName(table)));
}

function context(ctx: NativeContext): { rt: Runtime; site: CallSite } {
  return { rt: runtimeOf(ctx), site: ctx as CallSite };
}

const read: NativeDef = {
  name: "read",
  minArgs: 2,
  maxArgs: 3,
  gas: READ_GAS,
  impl(ctx, args) {
    const [table, key, fields] = args;
    if (!isTable(table) || typeof key !== "string") throw argsError("read", args);
    if (args.length === 3 && !Array.isArray(fields)) throw argsError("read", args);
    const { rt, site } = context(ctx);
    guardTable(rt, table, "read", site);
    const wanted =
      args.length === 3 && (fields as PactList).length > 0
        ? fieldList("read", fields as PactList, args)
        : null;
    const row = readExisting(rt, table, key);
    return wanted === null ? row : restrict(row, wanted);
  },
};

const withRead: NativeDef = {
  name: "with-read",
  minArgs: 3,
  maxArgs: 3,
  gas: READ_GAS,
  impl(ctx, args) {
    const [table, key, body] = args;
    if (!isTable(table) || typeof key !== "string" || !isFunction(body)) {
      throw argsError("with-read", args);
    }
    const { rt, site } = context(ctx);
    guardTable(rt, table, "read", site);
    return ctx.apply(body, [readExisting(rt, table, key)]);
  },
};

const withDefaultRead: NativeDef = {
  name: "with-default-read",
  minArgs: 4,
  maxArgs: 4,
  gas: READ_GAS,
  impl(ctx, args) {
    const [table, key, fallback, body] = args;
    if (!isTable(table) || typeof key !== "string" || !isObject(fallback) || !isFunction(body)) {
      throw argsError("with-default-read", args);
    }
    const { rt, site } = context(ctx);
    guardTable(rt, table, "read", site);
    return ctx.apply(body, [readRow(rt, table, key) ?? fallback]);
  },
};

const keys: NativeDef = {
  name: "keys",
  minArgs: 1,
  maxArgs: 1,
  gas: SELECT_GAS,
  impl(ctx, args) {
    const table = args[0];
    if (!isTable(table)) throw argsError("keys", args);
    const { rt, site } = context(ctx);
    guardTable(rt, table, "read", site);
    requireImpure(rt);
    return dbOperation(() => rt.env.db.rowKeys(tableName(table)));
  },
};

/** Applies a filter to a row; it must decide with a boolean. */
function decide(ctx: NativeContext, fn: Callable, args: readonly PactValue[]): boolean {
  return boolResult(ctx.apply(fn, args));
}

/** `(select table filter)` / `(select table fields filter)`: matching rows, ascending by key. */
const select: NativeDef = {
  name: "select",
  minArgs: 2,
  maxArgs: 3,
  gas: SELECT_GAS,
  impl(ctx, args) {
    const table = args[0];
    const filter = args[args.length - 1];
    if (!isTable(table) || !isFunction(filter)) throw argsError("select", args);
    let fields: Set<string> | null = null;
    if (args.length === 3) {
      const list = args[1];
      if (!Array.isArray(list)) throw argsError("select", args);
      fields = fieldList("select", list as PactList, args);
    }
    const { rt, site } = context(ctx);
    guardTable(rt, table, "read", site);
    const out: PactObject[] = [];
    for (const [, row] of allRows(rt, table)) {
      if (decide(ctx, filter, [row])) out.push(fields === null ? row : restrict(row, fields));
    }
    return out;
  },
};

/**
 * `(fold-db table query consumer)`: `consumer` applied to the key and row of every row `query`
 * accepts; the results ascending by key. As in Pact, the consumer runs from the last match to the
 * first.
 */
const foldDb: NativeDef = {
  name: "fold-db",
  minArgs: 3,
  maxArgs: 3,
  gas: SELECT_GAS,
  impl(ctx, args) {
    const [table, query, consumer] = args;
    if (!isTable(table) || !isFunction(query) || !isFunction(consumer)) {
      throw argsError("fold-db", args);
    }
    const { rt, site } = context(ctx);
    guardTable(rt, table, "read", site);
    const matches: Array<readonly [string, PactObject]> = [];
    for (const entry of allRows(rt, table)) {
      if (decide(ctx, query, entry)) matches.push(entry);
    }
    const out: RuntimeValue[] = new Array(matches.length);
    for (let i = matches.length - 1; i >= 0; i--) out[i] = ctx.apply(consumer, matches[i]!);
    return out as PactValue[];
  },
};

// ---------------------------------------------------------------------------------------------
// Writes

function writeNative(name: "insert" | "write" | "update"): NativeDef {
  return {
    name,
    minArgs: 3,
    maxArgs: 3,
    gas: WRITE_GAS,
    impl(ctx, args) {
      const [table, key, row] = args;
      if (!isTable(table) || typeof key !== "string" || !isObject(row)) {
        throw argsError(name, args);
      }
      const { rt, site } = context(ctx);
      guardTable(rt, table, "write", site);
      if (!matchesSchema(row, table.schema, name === "update")) {
        throw schemaMismatch(table.schema, row);
      }
      requireImpure(rt);
      dbOperation(() => rt.env.db.writeRow(name, tableName(table), key, row));
      return "Write succeeded";
    },
  };
}

const createTable: NativeDef = {
  name: "create-table",
  minArgs: 1,
  maxArgs: 1,
  gas: CREATE_TABLE_GAS,
  impl(ctx, args) {
    const table = args[0];
    if (!isTable(table)) throw argsError("create-table", args);
    const { rt, site } = context(ctx);
    assertTopLevel(rt, "create-table");
    guardTable(rt, table, "create", site);
    requireImpure(rt);
    dbOperation(() => rt.env.db.createTable(table.module, table.name));
    return "TableCreated";
  },
};

// ---------------------------------------------------------------------------------------------
// Metadata

const describeTable: NativeDef = {
  name: "describe-table",
  minArgs: 1,
  maxArgs: 1,
  gas: METADATA_GAS,
  impl(ctx, args) {
    const table = args[0];
    if (!isTable(table)) throw argsError("describe-table", args);
    assertTopLevel(runtimeOf(ctx), "describe-table");
    return new Map<string, PactValue>([
      ["name", table.name],
      ["module", renderModuleName(table.module)],
      ["type", renderType({ kind: "table", schema: table.schema })],
    ]);
  },
};

const describeModule: NativeDef = {
  name: "describe-module",
  minArgs: 1,
  maxArgs: 1,
  gas: METADATA_GAS,
  impl(ctx, args) {
    const text = args[0];
    if (typeof text !== "string") throw argsError("describe-module", args);
    const name = parseModuleName(text);
    if (name === null) throw nativeFailure("describe-module", "invalid module name format");
    const { rt, site } = context(ctx);
    assertTopLevel(rt, "describe-module");
    assertLocalAllowed(rt, "describe-module");
    const module = rt.getModule(name, site);
    const out = new Map<string, PactValue>([
      ["name", module.info.rendered],
      ["hash", module.info.hash],
      ["tx_hash", module.info.txHash ?? ""],
      ["code", module.code],
    ]);
    if (module.kind === "module") out.set("interfaces", module.implements.map(renderModuleName));
    return out;
  },
};

const listModules: NativeDef = {
  name: "list-modules",
  minArgs: 0,
  maxArgs: 0,
  gas: METADATA_GAS,
  impl(ctx) {
    const rt = runtimeOf(ctx);
    assertLocalAllowed(rt, "list-modules");
    requireImpure(rt);
    return dbOperation(() => rt.env.db.moduleNames());
  },
};

/**
 * `static-redeploy`: writes a stored module back unchanged, without governance (Pact 5.2+). Pact
 * uses it to store a module again in its current serialisation after a format change; here the
 * module is written again in the current stored form, keeping its hash and transaction hash.
 */
const staticRedeploy: NativeDef = {
  name: "static-redeploy",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const text = args[0];
    if (typeof text !== "string") throw argsError("static-redeploy", args);
    const { rt, site } = context(ctx);
    assertTopLevel(rt, "static-redeploy");
    const name = parseModuleName(text);
    if (name === null) throw nativeFailure("static-redeploy", "invalid module name format");
    const module = rt.getModule(name, site);
    chargeModuleSourceWrite(rt.env.gas, module.code);
    chargeRewrite(rt.env, module);
    requireImpure(rt);
    // Pact logs the module's source again only when it still holds it, which a module read
    // from the state does not (its CBOR leaves the code out).
    dbOperation(() => rt.env.modules.write(module, null));
    return UNIT;
  },
};

export const DATABASE_NATIVES: readonly NativeDef[] = [
  createTable,
  describeModule,
  describeTable,
  foldDb,
  writeNative("insert"),
  keys,
  read,
  select,
  writeNative("update"),
  withDefaultRead,
  withRead,
  writeNative("write"),
  listModules,
  staticRedeploy,
];
