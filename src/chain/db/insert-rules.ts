/**
 * What a block must be for the chain database to store it: of the database's network version,
 * with the payload its header names, and extending its stored parent (same chain, height + 1);
 * a block without a stored parent only as its chain's one genesis block (at the genesis height,
 * with the version's genesis parent hash). Each refusal is a {@link HeaderInsertError} naming
 * the block. Full validation (weight, target, time, braiding, PoW, hashes) is the caller's job.
 */
import type Database from "better-sqlite3";
import { encodeBase64Url } from "../../crypto/index.ts";
import { equalBytes } from "../bytes.ts";
import { genesisParentHash } from "../header/genesis.ts";
import type { BlockHeader } from "../header/types.ts";
import type { PayloadWithOutputs } from "../payload/payload.ts";
import { type ChainwebVersion, genesisHeight } from "../version/version.ts";
import type { HeaderLink } from "./ancestry.ts";
import { HeaderInsertError } from "./errors.ts";

const hashText = encodeBase64Url;

/** How a refusal names a block. */
function blockName(header: BlockHeader): string {
  return `block ${hashText(header.hash)} (chain ${header.chainId}, height ${header.height})`;
}

export class InsertRules {
  private readonly genesisParents = new Map<number, Uint8Array>();
  private readonly genesisStmt: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly version: ChainwebVersion,
  ) {
    this.genesisStmt = db
      .prepare(
        "SELECT hash FROM block_headers WHERE chain = ? AND height = ? AND skip_hash IS NULL",
      )
      .pluck();
  }

  /** Refuses a block of another network version, or given with a payload its header does not name. */
  checkBlock(header: BlockHeader, payload: PayloadWithOutputs): void {
    if (header.versionCode !== this.version.code) {
      throw new HeaderInsertError(
        `${blockName(header)} has version code 0x${header.versionCode.toString(16)}, this database holds ${this.version.name} (0x${this.version.code.toString(16)})`,
      );
    }
    if (!equalBytes(payload.payloadHash, header.payloadHash)) {
      throw new HeaderInsertError(
        `${blockName(header)} names payload ${hashText(header.payloadHash)} but was given payload ${hashText(payload.payloadHash)}`,
      );
    }
  }

  /** Refuses a block that is not at its stored parent's chain and height + 1. */
  checkExtends(header: BlockHeader, parent: HeaderLink): void {
    if (parent.chainId !== header.chainId || parent.height + 1 !== header.height) {
      throw new HeaderInsertError(
        `${blockName(header)} does not extend its parent ${hashText(header.parent)} (chain ${parent.chainId}, height ${parent.height})`,
      );
    }
  }

  /**
   * A header without a stored parent must be its chain's genesis block: at the chain's genesis
   * height, with the version's genesis parent hash, and the only one of the chain. (Its other
   * fields are validation's business, so a network may use its own genesis payloads.)
   */
  checkGenesis(header: BlockHeader): void {
    const chainId = header.chainId;
    let parent = this.genesisParents.get(chainId);
    if (parent === undefined) {
      parent = genesisParentHash(this.version, chainId);
      this.genesisParents.set(chainId, parent);
    }
    const height = genesisHeight(this.version, chainId);
    if (!equalBytes(header.parent, parent) || header.height !== height) {
      throw new HeaderInsertError(
        `${blockName(header)}: parent ${hashText(header.parent)} is not in the database`,
      );
    }
    const existing = this.genesisStmt.get(chainId, height) as Uint8Array | undefined;
    if (existing !== undefined) {
      throw new HeaderInsertError(
        `${blockName(header)} is a second genesis block of chain ${chainId}, which already has ${hashText(existing)}`,
      );
    }
  }
}
