/**
 * Time natives: `time parse-time format-time add-time diff-time hours minutes days`.
 * Times have microsecond resolution; durations are decimal seconds.
 */

import { argsError, nativeFailure } from "../runtime/native-errors.ts";
import type { NativeDef } from "../runtime/types.ts";
import { Decimal } from "../values/decimal.ts";
import {
  addTime,
  daysToSeconds,
  diffTime,
  hoursToSeconds,
  minutesToSeconds,
  PactTime,
} from "../values/time.ts";
import { formatTime, parseIsoTime, parseTime } from "../values/time-format.ts";

/** Flat costs in milligas (the reference's table gas model). */
export const TIME_PARSE_GAS = 500;
export const TIME_ARITHMETIC_GAS = 250;

const time: NativeDef = {
  name: "time",
  minArgs: 1,
  maxArgs: 1,
  gas: TIME_PARSE_GAS,
  impl(_ctx, args) {
    const s = args[0]!;
    if (typeof s !== "string") throw argsError("time", args);
    const t = parseIsoTime(s);
    if (t === null) throw nativeFailure("time", "time default format parse failure");
    return t;
  },
};

const parseTimeNative: NativeDef = {
  name: "parse-time",
  minArgs: 2,
  maxArgs: 2,
  gas: TIME_PARSE_GAS,
  impl(_ctx, args) {
    const format = args[0]!;
    const s = args[1]!;
    if (typeof format !== "string" || typeof s !== "string") throw argsError("parse-time", args);
    const t = parseTime(format, s);
    if (t === null) throw nativeFailure("parse-time", "parse-time parse failure");
    return t;
  },
};

const formatTimeNative: NativeDef = {
  name: "format-time",
  minArgs: 2,
  maxArgs: 2,
  gas: TIME_PARSE_GAS,
  impl(_ctx, args) {
    const format = args[0]!;
    const t = args[1]!;
    if (typeof format !== "string" || !(t instanceof PactTime)) {
      throw argsError("format-time", args);
    }
    return formatTime(format, t);
  },
};

const addTimeNative: NativeDef = {
  name: "add-time",
  minArgs: 2,
  maxArgs: 2,
  gas: TIME_ARITHMETIC_GAS,
  impl(_ctx, args) {
    const t = args[0]!;
    const seconds = args[1]!;
    if (t instanceof PactTime && (typeof seconds === "bigint" || seconds instanceof Decimal)) {
      return addTime(t, seconds);
    }
    throw argsError("add-time", args);
  },
};

const diffTimeNative: NativeDef = {
  name: "diff-time",
  minArgs: 2,
  maxArgs: 2,
  gas: TIME_ARITHMETIC_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    const b = args[1]!;
    if (a instanceof PactTime && b instanceof PactTime) return diffTime(a, b);
    throw argsError("diff-time", args);
  },
};

function duration(name: string, toSeconds: (x: bigint | Decimal) => Decimal): NativeDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    gas: TIME_ARITHMETIC_GAS,
    impl(_ctx, args) {
      const x = args[0]!;
      if (typeof x === "bigint" || x instanceof Decimal) return toSeconds(x);
      throw argsError(name, args);
    },
  };
}

export const TIME = time;
export const PARSE_TIME = parseTimeNative;
export const FORMAT_TIME = formatTimeNative;
export const ADD_TIME = addTimeNative;
export const DIFF_TIME = diffTimeNative;
export const HOURS = duration("hours", hoursToSeconds);
export const MINUTES = duration("minutes", minutesToSeconds);
export const DAYS = duration("days", daysToSeconds);
