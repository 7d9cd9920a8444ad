/**
 * Limits of the block endpoints, as the Chainweb node's service API applies them
 * (`BlockHeaderDB/RestAPI/Server.hs`). A requested `limit` above the maximum is clamped, not
 * refused; too many branch bounds are refused with a 400.
 */

/** Most blocks (or headers) in one page of `GET .../block` and `POST .../block/branch`. */
export const MAX_BLOCK_PAGE_LIMIT = 360;

/** Most entries of `upper`, and separately of `lower`, in one branch query. */
export const MAX_BRANCH_BOUNDS = 32;
