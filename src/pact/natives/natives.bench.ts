/**
 * Timing script (not a test): direct calls per second of a few natives, called the way the
 * evaluator calls them (`impl(ctx, args)` with a preallocated argument array).
 * Run: node --import tsx src/pact/natives/natives.bench.ts
 */
import type { NativeContext, NativeDef, RuntimeValue } from "../runtime/types.ts";
import type { TestCallable } from "../test-support/test-context.ts";
import { testFn } from "../test-support/test-context.ts";
import { Decimal } from "../values/decimal.ts";
import { CORE_NATIVES_BY_NAME } from "./index.ts";

const CALLS = 2_000_000;
const ROUNDS = 7;

function native(name: string): NativeDef {
  const n = CORE_NATIVES_BY_NAME.get(name);
  if (n === undefined) throw new Error(`no native ${name}`);
  return n;
}

/** Prints the best and median calls/s over `ROUNDS` runs of `CALLS` calls. */
function measure(label: string, name: string, args: RuntimeValue[], calls = CALLS): void {
  const n = native(name);
  const ctx: NativeContext = {
    span: { line: 0, col: 0, endLine: 0, endCol: 0, start: 0, end: 0 },
    env: undefined,
    charge() {},
    checkTime() {},
    apply: (fn, fnArgs) => (fn as TestCallable).run(fnArgs),
  };
  let sink: RuntimeValue = 0n;
  for (let i = 0; i < 100_000; i++) sink = n.impl(ctx, args); // warm up
  const rates: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) sink = n.impl(ctx, args);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    rates.push(calls / seconds);
  }
  rates.sort((a, b) => a - b);
  const best = rates[rates.length - 1]!;
  const median = rates[rates.length >> 1]!;
  const fmt = (x: number) => `${(x / 1e6).toFixed(2)} M/s`;
  console.log(`${label.padEnd(36)} best ${fmt(best)}  median ${fmt(median)}`);
  if (sink === undefined) console.log("unreachable");
}

const list10 = Array.from({ length: 10 }, (_, i) => BigInt(i));
const obj = new Map<string, RuntimeValue>([
  ["name", "alice"],
  ["balance", Decimal.parseLiteral("10.5")],
]) as Map<string, never>;
const inc = testFn("inc", 1, (a) => (a[0] as bigint) + 1n);

measure("(+ 1 2)", "+", [1n, 2n]);
measure("(+ 1.5 2.25)", "+", [Decimal.parseLiteral("1.5"), Decimal.parseLiteral("2.25")]);
measure("(* 3 4)", "*", [3n, 4n]);
measure("(< 1 2)", "<", [1n, 2n]);
measure('(= "abc" "abc")', "=", ["abc", "abc"]);
measure('(length "hello")', "length", ["hello"]);
measure("(length [0..9])", "length", [list10]);
measure("(at 3 [0..9])", "at", [3n, list10]);
measure('(at "balance" {…})', "at", ["balance", obj]);
measure('(concat ["a" "b" "c"])', "concat", [["a", "b", "c"]]);
measure("(map inc [0..9]) (calls/s)", "map", [inc, list10], CALLS / 10);
