/**
 * A request body that holds one command, from its text: the JSON checks and their messages (the
 * same the API gives every JSON body), then the command's own. Pure, so the node can run it
 * wherever the command runs (an execution thread reads `local`'s body itself).
 */

import type { ParsedCommand } from "./types.ts";
import { parseCommand, type VerifyOptions } from "./verify.ts";

export type BodyJson<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly message: string };

/** The body's JSON value, or what is wrong with the body. */
export function jsonText(text: string): BodyJson<unknown> {
  if (text.trim() === "") return { ok: false, message: "the request body is empty: expected JSON" };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: `malformed JSON in the request body: ${(e as Error).message}` };
  }
}

/**
 * The body's JSON object, or what is wrong with the body (`expected` names what it should hold,
 * for the message).
 */
export function jsonObjectText(text: string, expected: string): BodyJson<Record<string, unknown>> {
  const json = jsonText(text);
  if (!json.ok) return json;
  const { value } = json;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, message: `the request body must be a JSON object ${expected}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** The command a body holds (`local`'s), or the message of the 400 that refuses it. */
export function parseCommandBody(
  text: string,
  options: VerifyOptions,
):
  | { readonly ok: true; readonly command: ParsedCommand }
  | { readonly ok: false; readonly message: string } {
  const body = jsonObjectText(text, "(a command)");
  if (!body.ok) return body;
  const parsed = parseCommand(body.value, options);
  if (!parsed.ok) {
    return {
      ok: false,
      message: `Validation failed: ${parsed.problems.map((p) => p.message).join("; ")}`,
    };
  }
  return parsed;
}
