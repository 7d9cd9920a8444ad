import { Base64UrlError, decodeBase64Url, encodeBase64Url } from "../../crypto/index.ts";
import { HASH_BYTES } from "../header/binary.ts";
import { CursorSyntaxError } from "./errors.ts";

/**
 * A page cursor (the `next` of a page): where the following page starts. `inclusive` starts at
 * the block itself, `exclusive` just after it.
 */
export interface Cursor {
  readonly kind: "inclusive" | "exclusive";
  readonly hash: Uint8Array;
}

/** The text form used in `next`: `inclusive:<hash>` or `exclusive:<hash>`. */
export function formatCursor(cursor: Cursor): string {
  return `${cursor.kind}:${encodeBase64Url(cursor.hash)}`;
}

/** Parses a `next` parameter; throws {@link CursorSyntaxError} naming the bad text. */
export function parseCursor(text: string): Cursor {
  const colon = text.indexOf(":");
  if (colon === -1) {
    throw new CursorSyntaxError(`missing ':' in next item: ${JSON.stringify(text)}`);
  }
  const kind = text.slice(0, colon);
  if (kind !== "inclusive" && kind !== "exclusive") {
    throw new CursorSyntaxError(
      `unrecognized next item: ${JSON.stringify(text)} (expected inclusive:<hash> or exclusive:<hash>)`,
    );
  }
  let hash: Uint8Array;
  try {
    hash = decodeBase64Url(text.slice(colon + 1));
  } catch (error) {
    if (!(error instanceof Base64UrlError)) throw error;
    throw new CursorSyntaxError(`next item ${JSON.stringify(text)}: ${error.message}`);
  }
  if (hash.length !== HASH_BYTES) {
    throw new CursorSyntaxError(
      `next item ${JSON.stringify(text)}: a block hash has ${HASH_BYTES} bytes, got ${hash.length}`,
    );
  }
  return { kind, hash };
}
