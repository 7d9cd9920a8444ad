/**
 * Turns whatever a command's execution threw into the failure object of its result (Pact 5's
 * `pactErrorToOnChainError`): the error type, the message cut to a bound, and where it arose.
 */
import { DbError } from "../pact/db/index.ts";
import { onChainErrorType, PactError, PactSyntaxError } from "../pact/index.ts";
import { JsonDepthError } from "../pact/values/index.ts";
import type { OnChainError } from "./types.ts";
import { VerifierError } from "./verifiers.ts";

/** Pact's `PactErrorMsgSize`: messages on chain are cut to this many characters. */
export const MAX_ERROR_MESSAGE_CHARS = 256;

/** The origin of an error raised outside any function. */
export const TOPLEVEL_ORIGIN = "<toplevel>";

/** JavaScript `RangeError`s a command can provoke, and what its result says instead. */
const ENGINE_LIMITS: readonly (readonly [RegExp, string])[] = [
  [
    /^Invalid (string|array|typed array) length|allocation failed/,
    "Resource limit exceeded: the command built a value too large for the interpreter",
  ],
  [
    /^Maximum call stack size exceeded/,
    "Resource limit exceeded: the command nested calls too deeply for the interpreter",
  ],
];

export function onChainError(e: unknown): OnChainError {
  if (e instanceof PactSyntaxError) {
    return errorObject("SyntaxError", e.reason, TOPLEVEL_ORIGIN, e.span.line);
  }
  if (e instanceof PactError) {
    const origin = e.callStack[0]?.name ?? TOPLEVEL_ORIGIN;
    const text = e.onChainMessage ?? onChainText(e.message);
    return errorObject(onChainErrorType(e.kind), text, origin, e.span?.line ?? 0);
  }
  if (e instanceof VerifierError) return errorObject("EvalError", e.message, TOPLEVEL_ORIGIN, 0);
  if (e instanceof DbError) {
    return errorObject("EvalError", e.onChainMessage, TOPLEVEL_ORIGIN, 0);
  }
  if (e instanceof JsonDepthError) return errorObject("EvalError", e.message, TOPLEVEL_ORIGIN, 0);
  // The JavaScript engine's own limits, in Pact's words rather than the engine's.
  if (e instanceof RangeError) {
    const message = ENGINE_LIMITS.find(([pattern]) => pattern.test(e.message))?.[1];
    if (message !== undefined) return errorObject("EvalError", message, TOPLEVEL_ORIGIN, 0);
  }
  // Anything else is a fault of the interpreter, reported as Pact reports unknown exceptions.
  const message = e instanceof Error ? e.message : String(e);
  return errorObject("EvalError", `Unknown exception: ${message}`, TOPLEVEL_ORIGIN, 0);
}

function errorObject(
  type: OnChainError["type"],
  message: string,
  origin: string,
  line: number,
): OnChainError {
  return { type, message: bounded(message), info: `${origin}:${line}` };
}

/** The first {@link MAX_ERROR_MESSAGE_CHARS} code points of `text`. */
export function bounded(text: string): string {
  if (text.length <= MAX_ERROR_MESSAGE_CHARS) return text;
  const points = Array.from(text);
  return points.length <= MAX_ERROR_MESSAGE_CHARS
    ? text
    : points.slice(0, MAX_ERROR_MESSAGE_CHARS).join("");
}

/**
 * Where Pact 5's on-chain text (`evalErrorToBoundedText`) words an error otherwise than the REPL's
 * (`pretty`): a continuation error is `Continuation error: …` on chain (Chainweb's
 * RemotePactTest expects it for a proof redeemed on the wrong chain).
 */
function onChainText(message: string): string {
  return message.startsWith("Continuation Error: ")
    ? `Continuation error: ${message.slice("Continuation Error: ".length)}`
    : message;
}
