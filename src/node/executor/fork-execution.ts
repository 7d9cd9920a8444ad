/**
 * Executing a block that is not stored yet, on the state of its own fork, without moving the
 * chain's state: an overlay of the state at the fork point (the newest ancestor on the state's
 * branch), the blocks between replayed on it, then the block itself. What comes out is checked
 * against the block: the outputs, the coinbase and the miner data must hash to the header's
 * `payloadHash`, as Chainweb validates a block before it enters its database.
 *
 * Each chain keeps the overlay its last checked block left, so a run of blocks that extend one
 * another on each chain (a peer's branches, parents first, the chains interleaved) has each block
 * executed once here; and what each block wrote there is what the chain's state takes when the
 * block is adopted (`writesOf`), so that it is not executed a second time.
 */
import { equalBytes } from "../../chain/bytes.ts";
import type { Block, ChainDatabase } from "../../chain/db/index.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import type { PayloadWithOutputs } from "../../chain/payload/payload.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import type { BlockWrites, ScratchDb } from "../../pact/db/index.ts";
import type { ForeignBlock } from "../import/foreign-block.ts";
import type { NodeChain } from "../node-chain.ts";
import type { ProofAncestry } from "../spv.ts";
import { storedCommand } from "../stored-payload.ts";
import { executeBlock, minerOfData } from "./block/block-executor.ts";
import { executeForeign } from "./foreign-execution.ts";

export class ForkExecution {
  /** Per chain, the overlay its last checked block left, and that block's hash (base64url). */
  private readonly last = new Map<number, { readonly hash: string; readonly db: ScratchDb }>();
  /** Per checked block (base64url hash), the overlay it ran on and its transactions' ids there. */
  private readonly ranOn = new Map<
    string,
    { readonly db: ScratchDb; readonly firstTxId: number; readonly endTxId: number }
  >();
  /** Each overlay's writes, listed once the batch is checked ({@link writesOf}). */
  private readonly overlayWrites = new Map<ScratchDb, BlockWrites>();
  /** {@link requestKeysOf}'s sets, per checked block. */
  private readonly requestKeys = new Map<Block, ReadonlySet<string>>();

  constructor(
    private readonly chainDb: ChainDatabase,
    /** Blocks of the batch checked so far, by hash (base64url): found before the database. */
    private readonly checked: ReadonlyMap<string, Block>,
  ) {}

  /**
   * Where the proofs of the batch's `cont` commands and `verify-spv` calls find their roots: the
   * batch's blocks checked so far (not stored yet), then the chain database.
   */
  private readonly ancestry: ProofAncestry = {
    link: (hash) => {
      const block = this.checked.get(encodeBase64Url(hash));
      if (block === undefined) return this.chainDb.link(hash);
      const { chainId, height, parent } = block.header;
      return { hash: block.header.hash, chainId, height, parent };
    },
    isAncestor: (ancestor, of) => {
      let at = of;
      for (;;) {
        if (equalBytes(at, ancestor)) return true;
        const block = this.checked.get(encodeBase64Url(at));
        if (block === undefined) return this.chainDb.isAncestor(ancestor, at);
        at = block.header.parent;
      }
    },
  };

  /**
   * Executes `block` on its fork; returns its payload with the outputs execution gave, or throws
   * {@link ImportError} when it is not what it claims.
   */
  check(chain: NodeChain, block: ForeignBlock, parent: BlockHeader): PayloadWithOutputs {
    const db = this.overlayAt(chain, parent);
    this.last.delete(block.header.chainId);
    const firstTxId = db.txId;
    const remade = executeForeign(
      db,
      block,
      parent,
      (miner) => chain.environment(parent, miner, this.ancestry),
      {
        onBranch: this.onBranchOf(chain, parent),
        entityKeys: chain.entityKeys,
      },
    );
    const hash = encodeBase64Url(block.header.hash);
    this.last.set(block.header.chainId, { hash, db });
    this.ranOn.set(hash, { db, firstTxId, endTxId: db.txId });
    return remade;
  }

  /**
   * What a checked block wrote on its overlay, for the chain's state to take when the block is
   * adopted instead of executing it again; undefined for a block not checked here. Asked once
   * every block of the batch is checked: each overlay's writes are listed once, and a block's are
   * those of its transactions.
   */
  writesOf(hash: Uint8Array): BlockWrites | undefined {
    const ran = this.ranOn.get(encodeBase64Url(hash));
    if (ran === undefined) return undefined;
    let all = this.overlayWrites.get(ran.db);
    if (all === undefined) {
      all = ran.db.writes();
      this.overlayWrites.set(ran.db, all);
    }
    const within = (txId: number) => txId >= ran.firstTxId && txId < ran.endTxId;
    return {
      firstTxId: ran.firstTxId,
      endTxId: ran.endTxId,
      domains: all.domains.filter(([, txId]) => within(txId)),
      rows: all.rows.filter(([, , txId]) => within(txId)),
    };
  }

  /**
   * Whether a request key is in a block of the branch ending at `parent`: the batch's blocks
   * checked so far down to the first stored one, then the stored blocks below (as the chain
   * finds them on any branch).
   */
  private onBranchOf(chain: NodeChain, parent: BlockHeader): (hashBytes: Uint8Array) => boolean {
    return (hashBytes) => {
      const key = encodeBase64Url(hashBytes);
      let tip = parent;
      let block = this.checked.get(encodeBase64Url(tip.hash));
      while (block !== undefined) {
        if (this.requestKeysOf(block).has(key)) return true;
        const below = block.header.parent;
        block = this.checked.get(encodeBase64Url(below));
        tip = block?.header ?? this.chainDb.header(below)!;
      }
      return chain.isOnBranch(hashBytes, tip);
    };
  }

  /** The request keys of a checked block's commands, read from its transactions once. */
  private requestKeysOf(block: Block): ReadonlySet<string> {
    let keys = this.requestKeys.get(block);
    if (keys === undefined) {
      keys = new Set(block.payload.transactions.map((t) => storedCommand(t.transaction).hash));
      this.requestKeys.set(block, keys);
    }
    return keys;
  }

  /** A scratch state after `parent`: the last overlay when it ends there, else a new one. */
  private overlayAt(chain: NodeChain, parent: BlockHeader): ScratchDb {
    const last = this.last.get(parent.chainId);
    if (last !== undefined && last.hash === encodeBase64Url(parent.hash)) return last.db;
    // The blocks from the fork point to the parent: stored or checked before, so their commands
    // and miner data were verified then.
    const between: Block[] = [];
    let at = parent;
    while (!this.chainDb.isAncestor(at.hash, chain.head.hash)) {
      const block = this.blockOf(at.hash);
      between.push(block);
      at = this.blockOf(block.header.parent).header;
    }
    const db = chain.state.db.scratchAt(at.height);
    for (const block of between.reverse()) {
      const before = this.blockOf(block.header.parent).header;
      const miner = minerOfData(block.payload.minerData) ?? undefined;
      const commands = block.payload.transactions.map((t) => storedCommand(t.transaction));
      executeBlock(db, chain.environment(before, miner, this.ancestry), commands);
    }
    return db;
  }

  private blockOf(hash: Uint8Array): Block {
    const block = this.checked.get(encodeBase64Url(hash)) ?? this.chainDb.block(hash);
    if (block === undefined) throw new Error(`block ${encodeBase64Url(hash)} is not known`);
    return block;
  }
}
