import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PactError } from "../runtime/errors.ts";
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import { call } from "../test-support/test-context.ts";
import { Decimal } from "../values/decimal.ts";
import type { PactTime } from "../values/time.ts";
import {
  ADD_TIME,
  DAYS,
  DIFF_TIME,
  FORMAT_TIME,
  HOURS,
  MINUTES,
  PARSE_TIME,
  TIME,
} from "./time.ts";

const fails = (message: string, native: NativeDef, ...args: RuntimeValue[]) =>
  assert.throws(
    () => call(native, ...args),
    (e: unknown) => e instanceof PactError && e.kind === "execution" && e.message === message,
  );
const d = (text: string) => Decimal.parseLiteral(text);
const time = (s: string) => call(TIME, s) as PactTime;
/** A decimal result in Haskell `show` form. */
const show = (v: RuntimeValue) => {
  assert.ok(v instanceof Decimal);
  return v.toString();
};
const T = "2010-12-21T13:23:45Z";

describe("time and parse-time", () => {
  it("read ISO 8601 and strftime-like formats", () => {
    assert.equal(time("1970-01-01T00:00:01Z").micros, 1_000_000n);
    assert.equal(time(T).micros, 1292937825_000000n);
    assert.equal(
      (call(PARSE_TIME, "%Y-%m-%d", "2016-07-22") as PactTime).micros,
      1469145600_000000n,
    );
  });
  it("report unparsable text", () => {
    fails(
      "native execution failure, time failed with message: time default format parse failure",
      TIME,
      "2016-07-22",
    );
    fails(
      "native execution failure, parse-time failed with message: parse-time parse failure",
      PARSE_TIME,
      "%Y",
      "x",
    );
    fails(
      "Type error: failed to call native function time with argument(s) of type(s): integer",
      TIME,
      1n,
    );
  });
});

describe("format-time", () => {
  it("writes the format's fields", () => {
    const t2 = call(ADD_TIME, time(T), d("0.001002")) as PactTime;
    assert.equal(call(FORMAT_TIME, "%Y-%m-%dT%H:%M:%S%Q", t2), "2010-12-21T13:23:45.001002");
    assert.equal(call(FORMAT_TIME, "%a %l%p", time(T)), "Tue  1PM");
    fails(
      "Type error: failed to call native function format-time with argument(s) of type(s): string, string",
      FORMAT_TIME,
      "%Y",
      T,
    );
  });
});

describe("add-time and diff-time", () => {
  it("add integer or decimal seconds", () => {
    const t = time("2016-07-22T11:26:35Z");
    assert.equal((call(ADD_TIME, t, 1n) as PactTime).micros, t.micros + 1_000_000n);
    assert.equal((call(ADD_TIME, t, d("1.0")) as PactTime).micros, t.micros + 1_000_000n);
    // Fractions of a microsecond round half to even.
    assert.equal((call(ADD_TIME, t, d("0.0000025")) as PactTime).micros, t.micros + 2n);
  });
  it("subtract times to decimal seconds", () => {
    const a = time("2016-07-22T11:26:35Z");
    const b = time("2016-07-22T10:26:35Z");
    assert.equal(show(call(DIFF_TIME, a, b)), "3600");
    assert.equal(show(call(DIFF_TIME, b, call(ADD_TIME, b, d("0.5")))), "-0.5");
  });
  it("reject other argument types", () => {
    fails(
      "Type error: failed to call native function add-time with argument(s) of type(s): time, string",
      ADD_TIME,
      time(T),
      "1",
    );
    fails(
      "Type error: failed to call native function diff-time with argument(s) of type(s): time, integer",
      DIFF_TIME,
      time(T),
      1n,
    );
  });
});

describe("hours minutes days", () => {
  it("convert to decimal seconds", () => {
    assert.equal(show(call(MINUTES, 1n)), "60");
    assert.equal(show(call(HOURS, 1n)), "3600");
    assert.equal(show(call(DAYS, 1n)), "86400");
    assert.equal(show(call(HOURS, d("0.5"))), "1800");
    assert.equal(show(call(MINUTES, d("1.25"))), "75");
    fails(
      "Type error: failed to call native function days with argument(s) of type(s): string",
      DAYS,
      "1",
    );
  });
});
