/**
 * The JSON text of a command result, with Pact's key order:
 * `{"gas","result","reqKey","logs","events"?,"metaData","continuation","txId"}`, where `events`
 * is left out when there are none and a failure is
 * `{"status":"failure","error":{"callStack":[],"type","message","info"}}`.
 */

import type { PactEvent } from "../pact/index.ts";
import { encodeModuleName, encodePactValue, jsonString } from "../pact/values/index.ts";
import type { CommandOutcome, CommandOutput } from "./types.ts";

/**
 * Encodes `outcome`; `metaData` is JSON text supplied by the caller (the node's block data; the
 * development server has none: `null`).
 */
export function encodeCommandResult(outcome: CommandOutcome, metaData = "null"): string {
  const [head, tail] = encodeCommandResultAround(outcome);
  return head + metaData + tail;
}

/**
 * The result's JSON text cut where `metaData` goes: `head + metaData + tail` is the result. The
 * node stores results with `null` there and adds the block's data when a client asks.
 */
export function encodeCommandResultAround(outcome: CommandOutcome): [string, string] {
  let head = `{"gas":${outcome.gas},"result":${encodeOutput(outcome.result)},"reqKey":${jsonString(outcome.reqKey)},"logs":${jsonString(outcome.logs)}`;
  if (outcome.events.length > 0) head += `,"events":${encodeEvents(outcome.events)}`;
  head += `,"metaData":`;
  const tail = `,"continuation":${outcome.continuation ?? "null"},"txId":${outcome.txId ?? "null"}}`;
  return [head, tail];
}

function encodeOutput(output: CommandOutput): string {
  if (output.status === "success") {
    return `{"status":"success","data":${encodePactValue(output.data)}}`;
  }
  const e = output.error;
  return `{"status":"failure","error":{"callStack":[],"type":${jsonString(e.type)},"message":${jsonString(e.message)},"info":${jsonString(e.info)}}}`;
}

/** `[{"params":[…],"name":"TRANSFER","module":{"namespace":…,"name":…},"moduleHash":"…"}, …]` */
export function encodeEvents(events: readonly PactEvent[]): string {
  let out = "[";
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as PactEvent;
    if (i > 0) out += ",";
    out += `{"params":${encodePactValue(e.params)},"name":${jsonString(e.name)},"module":${encodeModuleName(e.module)},"moduleHash":${jsonString(e.moduleHash)}}`;
  }
  return `${out}]`;
}
