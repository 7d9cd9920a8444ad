/**
 * Fork choice: each chain's best head, the heaviest of its stored headers that the head filter
 * lets through (the development snapshots' one leaves out abandoned blocks: snapshots.ts), and
 * the cut, the highest braided set of heads on the heaviest branches (braiding.ts).
 */
import type Database from "better-sqlite3";
import { encodeBase64Url } from "../../crypto/index.ts";
import { decodeHeader } from "../header/binary.ts";
import type { BlockHeader } from "../header/types.ts";
import { allChainIds, type ChainwebVersion } from "../version/version.ts";
import type { BlockStore } from "./block-store.ts";
import { mustStepBack } from "./braiding.ts";
import { plain } from "./column-values.ts";

export class ForkChoice {
  private readonly maxHeightStmt: Database.Statement;
  private readonly bestHeadStmt: Database.Statement;

  /**
   * `headFilter`, when given, is an SQL condition on the header row `h` that a best head must
   * meet. It is checked while walking the weight index from the top, so it should leave out
   * few of the heaviest headers.
   */
  constructor(
    db: Database.Database,
    private readonly version: ChainwebVersion,
    private readonly store: BlockStore,
    headFilter?: string,
  ) {
    this.maxHeightStmt = db
      .prepare("SELECT max(height) FROM block_headers WHERE chain = ?")
      .pluck();
    const filter = headFilter === undefined ? "" : `\n           AND ${headFilter}`;
    this.bestHeadStmt = db
      .prepare(
        `SELECT bytes FROM block_headers h WHERE chain = ?${filter}
         ORDER BY weight DESC, height DESC, hash LIMIT 1`,
      )
      .pluck();
  }

  /** The largest stored height of a chain; undefined for a chain without blocks. */
  maxHeight(chainId: number): number | undefined {
    return (this.maxHeightStmt.get(chainId) as number | null) ?? undefined;
  }

  /**
   * The heaviest header of a chain. Ties in weight go to the greater height, then to the
   * smaller hash bytes (Chainweb compares cuts by weight, then by height; the hash makes the
   * choice deterministic). The heaviest header is always a leaf: a child outweighs its parent.
   */
  bestHead(chainId: number): BlockHeader | undefined {
    const bytes = this.bestHeadStmt.get(chainId) as Uint8Array | undefined;
    return bytes === undefined ? undefined : decodeHeader(plain(bytes));
  }

  /** The chains of the version that have at least one stored block, ascending. */
  chainIds(): number[] {
    return allChainIds(this.version).filter((chainId) => this.maxHeight(chainId) !== undefined);
  }

  /**
   * The current cut: for every chain with blocks, one head, the whole set braided
   * (braiding.ts). It starts from each chain's {@link bestHead} and steps back, by parent,
   * every head that cannot be braided with its neighbours' heads, until none has to. Each
   * step is forced (no braided cut below the heaviest heads keeps that head), so the result is
   * the highest braided cut on the heaviest branches.
   */
  cut(): Map<number, BlockHeader> {
    const heads = new Map<number, BlockHeader>();
    for (const chainId of this.chainIds()) heads.set(chainId, this.bestHead(chainId)!);
    for (;;) {
      const back: number[] = [];
      for (const head of heads.values()) {
        for (const chainId of head.adjacents.keys()) {
          const other = heads.get(chainId);
          if (other !== undefined && mustStepBack(head, other)) {
            back.push(head.chainId);
            break;
          }
        }
      }
      if (back.length === 0) return heads;
      for (const chainId of back) {
        const head = heads.get(chainId)!;
        const parent = this.store.header(head.parent);
        if (parent === undefined) {
          throw new Error(
            `no braided cut: the genesis block ${encodeBase64Url(head.hash)} of chain ${chainId} is not braided with its neighbours`,
          );
        }
        heads.set(chainId, parent);
      }
    }
  }
}
