/**
 * Test support: a minimal NativeContext and function values backed by JS functions, so native
 * families can be tested without the evaluator.
 */
import type { Callable, NativeContext, NativeDef, RuntimeValue } from "../runtime/types.ts";
import type { Span } from "../syntax/span.ts";

export interface TestCallable extends Callable {
  readonly run: (args: readonly RuntimeValue[]) => RuntimeValue;
}

/** A function value that runs `run` when applied. */
export function testFn(
  name: string,
  arity: number,
  run: (args: readonly RuntimeValue[]) => RuntimeValue,
): TestCallable {
  return { kind: "callable", name, arity, run };
}

const TEST_SPAN: Span = { line: 0, col: 0, endLine: 0, endCol: 0, start: 0, end: 0 };

export interface TestContext extends NativeContext {
  /** Milligas charged through `charge` so far. */
  charged: number;
  /** Every application made through `apply`, in order. */
  readonly applied: { fn: string; args: readonly RuntimeValue[] }[];
}

export function testContext(): TestContext {
  const ctx: TestContext = {
    span: TEST_SPAN,
    env: undefined,
    charged: 0,
    applied: [],
    charge(milligas: number) {
      ctx.charged += milligas;
    },
    checkTime() {},
    apply(fn: Callable, args: readonly RuntimeValue[]): RuntimeValue {
      ctx.applied.push({ fn: fn.name, args });
      return (fn as TestCallable).run(args);
    },
  };
  return ctx;
}

/** Calls a native directly with a fresh test context. */
export function call(native: NativeDef, ...args: RuntimeValue[]): RuntimeValue {
  if (args.length < native.minArgs || args.length > native.maxArgs) {
    throw new Error(`test misuse: ${native.name} takes ${native.minArgs}..${native.maxArgs} args`);
  }
  return native.impl(testContext(), args);
}
