/**
 * The state of a defpact between its steps (Pact's `DefPactExec`), the step being run
 * (`DefPactStep`), yields and their provenance, and their JSON: the stable encoding that command
 * results carry as `continuation` and that the contract database stores under the defpact id.
 */
import { blake2b256, encodeBase64Url } from "../../crypto/index.ts";
import { decodePactValue, encodeLegacyObject, encodePactValue } from "../values/json.ts";
import { JsonNumber, type JsonValue, jsonString, parseJson } from "../values/json-text.ts";
import type { PactObject, PactValue } from "../values/types.ts";

/** Where a cross-chain yield may be resumed: the target chain and the yielding module's hash. */
export interface Provenance {
  readonly targetChainId: string;
  readonly moduleHash: string;
}

/** What a step yielded for the next one (`yield`), with its provenance when cross-chain. */
export interface Yield {
  readonly data: PactObject;
  readonly provenance: Provenance | null;
  /** The chain the cross-chain yield was made on. */
  readonly source: string | null;
}

/** The defpact and the arguments it was started with (Pact's `DefPactContinuation`). */
export interface DefPactContinuation {
  /** Qualified name of the defpact, e.g. `ns.m.transfer-crosschain`. */
  readonly def: string;
  readonly args: readonly PactValue[];
}

/** A nested defpact's state inside its parent's (Pact's `NestedDefPactExec`). */
export interface NestedDefPactExec {
  readonly stepCount: number;
  readonly yield: Yield | null;
  readonly step: number;
  readonly pactId: string;
  readonly continuation: DefPactContinuation;
  readonly nested: ReadonlyMap<string, NestedDefPactExec>;
}

/** A defpact's state after its latest step. Immutable: updates make a new value. */
export interface DefPactExec extends NestedDefPactExec {
  readonly stepHasRollback: boolean;
}

/** The step to run (Pact's `DefPactStep`), with the yield `resume` reads. */
export interface DefPactStep {
  readonly step: number;
  readonly rollback: boolean;
  readonly pactId: string;
  readonly resume: Yield | null;
}

export function toNested(exec: DefPactExec): NestedDefPactExec {
  return {
    stepCount: exec.stepCount,
    yield: exec.yield,
    step: exec.step,
    pactId: exec.pactId,
    continuation: exec.continuation,
    nested: exec.nested,
  };
}

export function fromNested(nested: NestedDefPactExec, stepHasRollback: boolean): DefPactExec {
  return { ...nested, stepHasRollback };
}

// ---------------------------------------------------------------------------------------------
// JSON (Pact's StableEncoding; fields in its order)

/** `{"args":[…],"def":"m.p"}` */
export function encodeContinuation(c: DefPactContinuation): string {
  let args = "[";
  for (let i = 0; i < c.args.length; i++) {
    if (i > 0) args += ",";
    args += encodePactValue(c.args[i]!);
  }
  return `{"args":${args}],"def":${jsonString(c.def)}}`;
}

/** `{"data":{…},"provenance":{…}|null[,"source":"0"]}` */
export function encodeYield(y: Yield): string {
  const provenance =
    y.provenance === null
      ? "null"
      : `{"targetChainId":${jsonString(y.provenance.targetChainId)},"moduleHash":${jsonString(y.provenance.moduleHash)}}`;
  const source = y.source === null ? "" : `,"source":${jsonString(y.source)}`;
  return `{"data":${encodePactValue(y.data)},"provenance":${provenance}${source}}`;
}

function encodeNestedMap(nested: ReadonlyMap<string, NestedDefPactExec>): string {
  if (nested.size === 0) return "";
  const members = new Map<string, string>();
  for (const [id, n] of nested) members.set(id, encodeNestedExec(n));
  return `"nested":${encodeLegacyObject(members)},`;
}

function encodeNestedExec(n: NestedDefPactExec): string {
  return `{${encodeNestedMap(n.nested)}"executed":null,"pactId":${jsonString(n.pactId)},"step":${n.step},"yield":${n.yield === null ? "null" : encodeYield(n.yield)},"continuation":${encodeContinuation(n.continuation)},"stepCount":${n.stepCount}}`;
}

/**
 * The JSON of a defpact's state, as command results carry it (`continuation`):
 * `{["nested":{…},]"executed":null,"pactId":…,"stepHasRollback":…,"step":…,"yield":…,
 * "continuation":{"args":[…],"def":…},"stepCount":…}`.
 */
export function encodeDefPactExec(e: DefPactExec): string {
  return `{${encodeNestedMap(e.nested)}"executed":null,"pactId":${jsonString(e.pactId)},"stepHasRollback":${e.stepHasRollback},"step":${e.step},"yield":${e.yield === null ? "null" : encodeYield(e.yield)},"continuation":${encodeContinuation(e.continuation)},"stepCount":${e.stepCount}}`;
}

/** Reads a defpact's state from its JSON; throws a message naming the bad field. */
export function decodeDefPactExec(text: string): DefPactExec {
  return decodeDefPactExecValue(parseJson(text));
}

/** Reads a defpact's state from its parsed JSON (e.g. a command result's `continuation`). */
export function decodeDefPactExecValue(j: JsonValue): DefPactExec {
  const o = object(j, "defpact state");
  const nested = decodeNested(o);
  return { ...nested, stepHasRollback: boolean(o.get("stepHasRollback"), "stepHasRollback") };
}

function decodeNested(o: ReadonlyMap<string, JsonValue>): NestedDefPactExec {
  const nestedJson = o.get("nested");
  const nested = new Map<string, NestedDefPactExec>();
  if (nestedJson !== undefined && nestedJson !== null) {
    for (const [id, n] of object(nestedJson, "nested")) nested.set(id, decodeNested(object(n, id)));
  }
  const y = o.get("yield");
  return {
    stepCount: integer(o.get("stepCount"), "stepCount"),
    yield: y === undefined || y === null ? null : decodeYield(object(y, "yield")),
    step: integer(o.get("step"), "step"),
    pactId: string(o.get("pactId"), "pactId"),
    continuation: decodeContinuation(object(o.get("continuation"), "continuation")),
    nested,
  };
}

function decodeContinuation(o: ReadonlyMap<string, JsonValue>): DefPactContinuation {
  const args = o.get("args");
  if (!Array.isArray(args)) throw new TypeError("defpact state: continuation args is not a list");
  return { def: string(o.get("def"), "def"), args: args.map(decodePactValue) };
}

function decodeYield(o: ReadonlyMap<string, JsonValue>): Yield {
  const data = new Map<string, PactValue>();
  for (const [k, v] of object(o.get("data"), "yield data")) data.set(k, decodePactValue(v));
  const p = o.get("provenance");
  const source = o.get("source");
  return {
    data,
    provenance:
      p === undefined || p === null
        ? null
        : {
            targetChainId: string(object(p, "provenance").get("targetChainId"), "targetChainId"),
            moduleHash: string(object(p, "provenance").get("moduleHash"), "moduleHash"),
          },
    source: source === undefined || source === null ? null : string(source, "source"),
  };
}

function object(j: JsonValue | undefined, what: string): ReadonlyMap<string, JsonValue> {
  if (j instanceof Map) return j;
  throw new TypeError(`defpact state: ${what} is not an object`);
}

function string(j: JsonValue | undefined, what: string): string {
  if (typeof j === "string") return j;
  throw new TypeError(`defpact state: ${what} is not a string`);
}

function boolean(j: JsonValue | undefined, what: string): boolean {
  if (typeof j === "boolean") return j;
  throw new TypeError(`defpact state: ${what} is not a boolean`);
}

function integer(j: JsonValue | undefined, what: string): number {
  const n = j instanceof JsonNumber ? Number(j.text) : Number.NaN;
  if (Number.isSafeInteger(n)) return n;
  throw new TypeError(`defpact state: ${what} is not an integer`);
}

/**
 * The id of a defpact started inside a step of defpact `parentId`: the Blake2b-256 hash of
 * `<parentId>:<continuation JSON>`, unpadded base64url.
 */
export function nestedPactId(parentId: string, continuation: DefPactContinuation): string {
  return encodeBase64Url(blake2b256(`${parentId}:${encodeContinuation(continuation)}`));
}
