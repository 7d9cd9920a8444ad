import { encodeBase64Url } from "../../crypto/index.ts";
import { MAX_BRANCH_BOUNDS } from "./limits.ts";

/**
 * A block hash named by a query (a `next` cursor or an `upper` bound) is not in the chain's
 * database. The API answers 404 with `{"reason":"key not found","key":<hash>}`, as Chainweb does.
 */
export class BlockNotFoundError extends Error {
  override name = "BlockNotFoundError";
  /** The unknown hash, unpadded base64url. */
  readonly key: string;

  constructor(hash: Uint8Array, chain: number) {
    const key = encodeBase64Url(hash);
    super(`block ${key} is not in the database of chain ${chain}`);
    this.key = key;
  }
}

/** A `next` parameter that is not `inclusive:<hash>` or `exclusive:<hash>`. */
export class CursorSyntaxError extends Error {
  override name = "CursorSyntaxError";
}

/** A branch query with more than {@link MAX_BRANCH_BOUNDS} upper or lower bounds (HTTP 400). */
export class BranchBoundsError extends Error {
  override name = "BranchBoundsError";

  constructor(side: "upper" | "lower") {
    // Chainweb's exact text; its 400 body is this string as a JSON string.
    super(`${side} branch bound limit exceeded. Only ${MAX_BRANCH_BOUNDS} values are supported.`);
  }
}

/** A page query parameter (`limit`, `minheight`, `maxheight`) that is not an integer >= 0. */
export class PageQueryError extends Error {
  override name = "PageQueryError";
}

/** A header that cannot be stored: its parent is unknown, or it does not extend its parent. */
export class HeaderInsertError extends Error {
  override name = "HeaderInsertError";
}
