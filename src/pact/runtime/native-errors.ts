/**
 * The errors natives raise, worded as the reference renders them (Pretty form of `EvalError` in
 * Pact 5), since `expect-failure` matches on substrings of that text. All are execution errors.
 */

import type { Span } from "../syntax/span.ts";
import { pactValueToPretty } from "../values/show.ts";
import type { PactObject, PactValue } from "../values/types.ts";
import { PactError, pactErrorWithOnChainText } from "./errors.ts";
import { argTypeName } from "./kinds.ts";
import { isCallable, type RuntimeValue } from "./types.ts";

/** A native called with arguments of types it has no case for (`NativeArgumentsError`). */
export function argsError(name: string, args: readonly RuntimeValue[]): PactError {
  let types = "";
  for (let i = 0; i < args.length; i++) {
    types += (i === 0 ? "" : ", ") + argTypeName(args[i]!);
  }
  return new PactError(
    "execution",
    `Type error: failed to call native function ${name} with argument(s) of type(s): ${types}`,
  );
}

/** A native-specific failure (`NativeExecutionError`). */
export function nativeFailure(name: string, message: string): PactError {
  return pactErrorWithOnChainText(
    "execution",
    `native execution failure, ${name} failed with message: ${message}`,
    `Native execution failed for ${name} with the message: ${message}`,
  );
}

export function arithmeticError(message: string): PactError {
  return new PactError("execution", `Arithmetic exception: ${message}`);
}

export function floatingPointError(message: string): PactError {
  return new PactError("execution", `Floating point error: ${message}`);
}

export function decodeError(message: string): PactError {
  return new PactError("execution", `Decoding error: ${message}`);
}

export function enumerationError(message: string): PactError {
  return new PactError("execution", `Enumeration error: ${message}`);
}

export function arrayIndexError(length: number, index: bigint): PactError {
  return new PactError(
    "execution",
    `Array index out of bounds. Length (${length}), Index (${index})`,
  );
}

/**
 * What the reference reports for a Haskell exception escaping a native (e.g. `mod` by zero):
 * the transaction runner turns it into `UnknownException (displayException e)`.
 */
export function unknownException(message: string): PactError {
  return new PactError("execution", `Unknown exception: ${message}`);
}

/**
 * A function where a value belongs: a function passed to a native, or a constant's expression,
 * returned a function. `span` and `file` locate it when the caller knows where.
 */
export function expectedPactValueError(span?: Span, file?: string): PactError {
  return new PactError(
    "execution",
    "Expected Pact Value, got closure or table reference",
    span,
    [],
    file,
  );
}

/** A function that must decide a condition returned something other than a boolean. */
export function expectedBoolError(v: PactValue): PactError {
  return new PactError("execution", `expected bool value, got ${pactValueToPretty(v)}`);
}

/**
 * A condition's result as a boolean (Pact's `enforceBool`): a function or any other value is an
 * error.
 */
export function boolResult(v: RuntimeValue): boolean {
  if (typeof v === "boolean") return v;
  throw notBoolError(v);
}

/** The error for a condition's result that is not a boolean. */
export function notBoolError(v: RuntimeValue): PactError {
  return isCallable(v) ? expectedPactValueError() : expectedBoolError(v);
}

/** `at` or `where` on a field the object does not have. */
export function missingFieldError(field: string, o: PactObject): PactError {
  return new PactError("execution", `Key "${field}" not found in object: ${pactValueToPretty(o)}`);
}

/**
 * Code outside a module acted on its tables or capabilities without its admin
 * (`ModuleAdminNotAcquired`).
 */
export function moduleAdminNotAcquired(module: string): PactError {
  return pactErrorWithOnChainText(
    "execution",
    `Module admin necessary for operation but has not been acquired:${module}`,
    `Module admin is necessary for operation but has not been acquired: ${module}`,
  );
}
