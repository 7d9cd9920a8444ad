/**
 * Natives that render values as text or hash them: `format`, `show`, `hash`.
 * `show` and `format` use the show-text form (`[1, 2]`, `1.0`, quoted strings); `format` writes
 * string arguments raw. `hash` is Blake2b-256 of a string's UTF-8 bytes or of any other
 * value's JSON encoding, as unpadded base64url.
 */

import { BASIC_WORK_GAS } from "../gas/costs.ts";
import { argsError, nativeFailure } from "../runtime/native-errors.ts";
import { isCallable, type NativeDef } from "../runtime/types.ts";
import { pactValueHashInput } from "../values/json.ts";
import { pactValueToText } from "../values/show.ts";
import type { PactValue } from "../values/types.ts";
import { pactHashText } from "./strings.ts";

const PLACEHOLDER = "{}";

function formatArgument(v: PactValue): string {
  return typeof v === "string" ? v : pactValueToText(v);
}

const format: NativeDef = {
  name: "format",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const template = args[0]!;
    const values = args[1]!;
    if (typeof template !== "string" || !Array.isArray(values)) throw argsError("format", args);
    const parts = template.split(PLACEHOLDER);
    if (parts.length === 1) return template;
    // Extra values are ignored; too few is an error.
    if (parts.length - 1 > values.length) {
      throw nativeFailure("format", "not enough arguments for template");
    }
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i++) {
      out += formatArgument(values[i - 1] as PactValue) + parts[i]!;
    }
    return out;
  },
};

const show: NativeDef = {
  name: "show",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const v = args[0]!;
    if (isCallable(v)) throw argsError("show", args);
    return pactValueToText(v);
  },
};

const hash: NativeDef = {
  name: "hash",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const v = args[0]!;
    if (isCallable(v)) throw argsError("hash", args);
    return pactHashText(pactValueHashInput(v));
  },
};

export const FORMAT = format;
export const SHOW = show;
export const HASH = hash;
