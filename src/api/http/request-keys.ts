/** Request keys as endpoints receive them: 43 characters of unpadded base64url. */
import { badRequest } from "./errors.ts";

export const REQUEST_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Checks one request key; a 400 naming `where` and the bad value otherwise. */
export function requestKey(value: unknown, where: string): string {
  if (typeof value === "string" && REQUEST_KEY_PATTERN.test(value)) return value;
  const shown =
    typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  throw badRequest(
    `${where} must be a request key (43 characters from a-z, A-Z, 0-9, _ and -), got ${shown}`,
  );
}
