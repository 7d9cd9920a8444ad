/**
 * Request keys as endpoints receive them: only the canonical form of `src/command`'s
 * {@link parseRequestKey} (43 characters of unpadded base64url, 32 bytes). Anything else is a 400
 * that names the field, says why, and quotes at most a short prefix of the value.
 */
import { parseRequestKey, REQUEST_KEY_FORM } from "../../command/request-key.ts";
import { badRequest } from "./errors.ts";
import { describeBodyValue } from "./quote.ts";

export { REQUEST_KEY_PATTERN } from "../../command/request-key.ts";

/** Checks one request key; a 400 naming `where` and the bad value otherwise. */
export function requestKey(value: unknown, where: string): string {
  const parsed = typeof value === "string" ? parseRequestKey(value) : undefined;
  if (parsed?.ok === true) return value as string;
  const why = parsed === undefined ? "" : `: ${parsed.reason}`;
  throw badRequest(
    `${where} must be a request key (${REQUEST_KEY_FORM}), got ${describeBodyValue(value)}${why}`,
  );
}
