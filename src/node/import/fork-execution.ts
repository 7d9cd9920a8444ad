/**
 * Executing a block that is not stored yet, on the state of its own fork, without moving the
 * chain's state: an overlay of the state at the fork point (the newest ancestor on the state's
 * branch), the blocks between replayed on it, then the block itself. What comes out is checked
 * against the block: the outputs, the coinbase and the miner data must hash to the header's
 * `payloadHash`, as Chainweb validates a block before it enters its database.
 *
 * Each chain keeps the overlay its last checked block left, so a run of blocks that extend one
 * another on each chain (a peer's branches, parents first, the chains interleaved) has each block
 * executed once here.
 */
import { equalBytes } from "../../chain/bytes.ts";
import type { Block, ChainDatabase } from "../../chain/db/index.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import {
  makePayloadWithOutputs,
  type PayloadData,
  type PayloadWithOutputs,
} from "../../chain/payload/payload.ts";
import { type ParsedCommand, parseCommand } from "../../command/index.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import type { PactDb } from "../../pact/db/index.ts";
import { executeBlock, minerOfData } from "../block-execution/block-executor.ts";
import type { NodeChain } from "../node-chain.ts";
import type { ProofAncestry } from "../spv.ts";
import { storedCommand } from "../stored-payload.ts";
import { ImportError } from "./import-error.ts";
import { blockTransactionProblem } from "./transaction-rules.ts";

/**
 * A block made elsewhere: its header and its payload, with the outputs (a test's, or a whole
 * block read from a peer) or without them (what Chainweb's peers send: `payload/batch`), in
 * which case the outputs are the execution's.
 */
export interface ForeignBlock {
  readonly header: BlockHeader;
  readonly payload: PayloadWithOutputs | PayloadData;
}

const utf8 = new TextDecoder();

export class ForkExecution {
  /** Per chain, the overlay its last checked block left, and that block's hash (base64url). */
  private readonly last = new Map<number, { readonly hash: string; readonly db: PactDb }>();
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
    const remade = executeForeign(
      db,
      chain,
      block,
      parent,
      this.onBranchOf(chain, parent),
      this.ancestry,
    );
    this.last.set(block.header.chainId, { hash: encodeBase64Url(block.header.hash), db });
    return remade;
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
  private overlayAt(chain: NodeChain, parent: BlockHeader): PactDb {
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
    const db = chain.state.scratchAt(at.height);
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

/**
 * Executes a block made elsewhere on `db` (a state after `parent`, its block open) and returns
 * its payload with the outputs execution gave; throws {@link ImportError} when its miner data or
 * a command is not valid (transaction-rules.ts; `onBranch` says whether a request key is on the
 * branch ending at `parent`), or the outputs do not hash to the header's payload hash.
 */
export function executeForeign(
  db: PactDb,
  chain: NodeChain,
  block: ForeignBlock,
  parent: BlockHeader,
  onBranch: (hashBytes: Uint8Array) => boolean,
  ancestry?: ProofAncestry,
): PayloadWithOutputs {
  const { header, payload } = block;
  const miner = minerOfData(payload.minerData);
  if (miner === null) {
    throw new ImportError(
      "invalid-miner-data",
      header.chainId,
      header.hash,
      "the miner data is not a keys-all miner of ED25519 keys",
    );
  }
  const commands = verifiedCommands(block);
  const rules = {
    chainId: header.chainId,
    parentTimeMicros: parent.creationTime,
    earlier: new Set<string>(),
    onBranch,
    entityKeys: chain.entityKeys,
  };
  for (const [i, command] of commands.entries()) {
    const problem = blockTransactionProblem(command, rules);
    if (problem !== null) {
      throw new ImportError(
        "invalid-command",
        header.chainId,
        header.hash,
        `transaction ${i} (${command.hash}): ${problem}`,
      );
    }
  }
  const executed = executeBlock(db, chain.environment(parent, miner, ancestry), commands);
  const remade = makePayloadWithOutputs(
    executed.commands.map((c) => ({ transaction: c.transaction, output: c.output })),
    payload.minerData,
    executed.coinbase,
  );
  if (executed.rejected.length > 0 || !equalBytes(remade.payloadHash, header.payloadHash)) {
    throw new ImportError(
      "outputs-mismatch",
      header.chainId,
      header.hash,
      outputsDifference(payload, remade, executed.rejected),
    );
  }
  return remade;
}

/** The block's commands, each with its hash and signatures checked. */
function verifiedCommands(block: ForeignBlock): ParsedCommand[] {
  return block.payload.transactions.map((t, i) => {
    const bytes = "transaction" in t ? t.transaction : t;
    let json: unknown;
    try {
      json = JSON.parse(utf8.decode(bytes));
    } catch {
      throw new ImportError(
        "invalid-command",
        block.header.chainId,
        block.header.hash,
        `transaction ${i} is not JSON`,
      );
    }
    const parsed = parseCommand(json);
    if (!parsed.ok) {
      throw new ImportError(
        "invalid-command",
        block.header.chainId,
        block.header.hash,
        `transaction ${i} is not a valid command: ${parsed.problems.map((p) => p.message).join("; ")}`,
      );
    }
    return parsed.command;
  });
}

/** Where the outputs of a block differ from what executing it gave, in words. */
function outputsDifference(
  stated: PayloadWithOutputs | PayloadData,
  executed: PayloadWithOutputs,
  rejected: readonly { readonly command: ParsedCommand; readonly reason: string }[],
): string {
  if (rejected.length > 0) {
    return `transaction ${rejected[0]!.command.hash} cannot be in a block: ${rejected[0]!.reason}`;
  }
  if (!("coinbase" in stated)) return "the outputs hash of executing it differs from the header's";
  if (!equalBytes(stated.coinbase, executed.coinbase)) return "the coinbase differs";
  const i = stated.transactions.findIndex(
    (t, n) => !equalBytes(t.output, executed.transactions[n]?.output ?? new Uint8Array()),
  );
  return i >= 0
    ? `the output of transaction ${i} differs`
    : "the outputs hash differs from the header's";
}
