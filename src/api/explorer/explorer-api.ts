/**
 * The explorer's JSON (`/braid/api/…`, docs/node.md "Explorer endpoints"): a block with its
 * commands decoded, a command by request key with its block and the other steps of its
 * defpact, an account's balances and recent transfers, the latest blocks, this node's peers and
 * where their cuts stand against its own, and what a search text names. Every answer reads indexed rows only (a block by hash, a request key, an
 * account's transfer range, each chain's last blocks), never a whole table, so it costs the
 * same on a node with a hundred blocks per chain or a hundred thousand.
 *
 * Stored transactions and outputs are JSON text; they are embedded as they are (so big
 * numbers keep their digits) when they parse, and as a JSON string otherwise.
 */
import { cutHeight, cutWeight } from "../../chain/cut/cut.ts";
import type { TransferRecord } from "../../chain/db/index.ts";
import { MAX_INDEXED_ACCOUNT_LENGTH } from "../../chain/db/index.ts";
import { encodeHeaderJson } from "../../chain/header/json.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import {
  encodeCommandPayload,
  isRequestKey,
  parseCommand,
  signCommand,
} from "../../command/index.ts";
import { decodeBase64Url, encodeBase64Url } from "../../crypto/index.ts";
import { LocalBusy, LocalRefusal, type NodePorts } from "../../node/ports.ts";
import type { P2PNetwork } from "../../p2p/network.ts";
import { peerKey } from "../../p2p/peer-info.ts";

/** What the explorer reads of the node. */
export type ExplorerPorts = Pick<
  NodePorts,
  "network" | "blocks" | "explorer" | "heads" | "commands"
>;

/** What the explorer reads of the node's P2P network: its own address and its peers. */
export type ExplorerPeers = Pick<P2PNetwork, "self" | "status">;

import { JsonNumber, parseJson } from "../../pact/values/index.ts";
import { HttpError } from "../http/errors.ts";
import { requestKey } from "../http/request-keys.ts";
import { CHAIN_ID, parseHash } from "../service/request-parts.ts";

/** Most transfers an account view lists. */
export const MAX_ACCOUNT_TRANSFERS = 50;
/** Most blocks in the latest-blocks list. */
export const MAX_RECENT_BLOCKS = 40;
/** Most `cont` commands listed for one defpact. */
export const MAX_CONTINUATIONS = 16;
/** Longest search text looked at (an account name is at most 256 characters). */
export const MAX_SEARCH_LENGTH = MAX_INDEXED_ACCOUNT_LENGTH;
/** Gas limit of the `local` call that reads an account's details on each chain. */
const DETAILS_GAS_LIMIT = 10_000;

const utf8 = new TextDecoder();
const str = JSON.stringify;

/** Stored JSON bytes as JSON text: as they are when they parse, else as a string. */
function embed(bytes: Uint8Array): string {
  const text = utf8.decode(bytes);
  try {
    JSON.parse(text);
    return text;
  } catch {
    return str(text);
  }
}

/** A stored command `{"hash","sigs","cmd"}` with `cmd` (itself JSON text) embedded parsed. */
function embedCommand(bytes: Uint8Array): string {
  const text = utf8.decode(bytes);
  try {
    const command = JSON.parse(text) as { hash?: unknown; sigs?: unknown; cmd?: unknown };
    if (typeof command.cmd === "string") {
      JSON.parse(command.cmd);
      return `{"hash":${str(command.hash)},"sigs":${str(command.sigs ?? [])},"cmd":${command.cmd}}`;
    }
  } catch {
    // Not a command's JSON: embedded as it is below.
  }
  return embed(bytes);
}

export class ExplorerApi {
  constructor(
    private readonly node: ExplorerPorts,
    /** The node's P2P network; absent, the node has no peers. */
    private readonly network?: ExplorerPeers,
  ) {}

  private get db() {
    return this.node.blocks;
  }

  /** The chain ids, ascending. */
  private get chainIds(): number[] {
    return Array.from({ length: this.node.network.chainCount }, (_, c) => c);
  }

  /** Whether a stored block is on its chain's current branch. */
  private onBranch(header: { hash: Uint8Array; chainId: number }): boolean {
    const head = this.node.heads.head(header.chainId)!;
    return this.db.isAncestor(header.hash, head.hash);
  }

  /** A block with its commands and results decoded; 404 when it is not stored. */
  block(hashText: string): string {
    const hash = parseHash(hashText, "block hash");
    const block = this.db.block(hash);
    if (block === undefined) throw new HttpError(404, `no block ${hashText} is stored`);
    const { header, payload } = block;
    const transactions = payload.transactions.map(
      ({ transaction, output }) =>
        `{"command":${embedCommand(transaction)},"result":${embed(output)}}`,
    );
    const children = this.db.children(hash).map((child) => encodeBase64Url(child.hash));
    return `{"chain":${header.chainId},"height":${header.height},"hash":${str(hashText)},"onBranch":${this.onBranch(header)},"children":${str(children)},"header":${encodeHeaderJson(header)},"minerData":${embed(payload.minerData)},"coinbase":${embed(payload.coinbase)},"transactions":[${transactions.join(",")}]}`;
  }

  /**
   * A command by request key: the block holding it (the current branch's when there is one),
   * the command, its result, and its defpact's other steps: the `cont` commands continuing it,
   * and for a `cont` the chain and request key of the step that started the defpact.
   */
  transaction(key: string): string {
    const keyBytes = decodeBase64Url(requestKey(key, "request key"));
    const located = this.db
      .transactionLocations(keyBytes)
      .map((location) => ({ location, header: this.db.header(location.blockHash)! }))
      .map((found) => ({ ...found, onBranch: this.onBranch(found.header) }))
      .sort((a, b) => Number(b.onBranch) - Number(a.onBranch));
    const found = located[0];
    if (found === undefined) throw new HttpError(404, `no command ${key} is in a stored block`);
    const { header, location, onBranch } = found;
    const { transaction, output } = this.db.payload(header.payloadHash)!.transactions[
      location.position
    ]!;
    const continuations = this.node.explorer.continuations(key, MAX_CONTINUATIONS).map((c) => ({
      chain: c.chainId,
      step: c.step,
      requestKey: c.requestKey,
      blockHash: encodeBase64Url(c.blockHash),
    }));
    return `{"requestKey":${str(key)},"chain":${header.chainId},"blockHash":${str(encodeBase64Url(header.hash))},"height":${header.height},"blockTime":${header.creationTime},"position":${location.position},"onBranch":${onBranch},"command":${embedCommand(transaction)},"result":${embed(output)},"continuations":${str(continuations)},"pactOrigin":${str(this.pactOrigin(transaction))}}`;
  }

  /**
   * The gas profile of a command in a block of chain `chainText`'s current branch, executed
   * again at its block's state (docs/gas.md "Gas profiles"); 404 when no such block holds it.
   */
  async profile(chainText: string, key: string): Promise<string> {
    const count = this.node.network.chainCount;
    if (!CHAIN_ID.test(chainText) || Number(chainText) >= count) {
      throw new HttpError(
        404,
        `no such chain: ${str(chainText.slice(0, 64))}; the chains are 0 to ${count - 1}`,
      );
    }
    const keyBytes = decodeBase64Url(requestKey(key, "request key"));
    let profile: string | null;
    try {
      profile = await this.node.commands.profile(Number(chainText), keyBytes);
    } catch (e) {
      if (e instanceof LocalRefusal) throw new HttpError(400, e.message);
      if (e instanceof LocalBusy) throw new HttpError(503, e.message);
      throw e;
    }
    if (profile === null) {
      throw new HttpError(404, `no command ${key} is in a block of chain ${chainText}'s branch`);
    }
    return profile;
  }

  /** For a `cont` command: where the defpact it continues started (chain and request key). */
  private pactOrigin(transaction: Uint8Array): { chain: number; requestKey: string } | null {
    let pactId: unknown;
    try {
      const cmd = JSON.parse(JSON.parse(utf8.decode(transaction)).cmd);
      pactId = cmd?.payload?.cont?.pactId;
    } catch {
      return null;
    }
    if (typeof pactId !== "string" || !isRequestKey(pactId)) return null;
    const [first] = this.db.transactionLocations(decodeBase64Url(pactId));
    if (first === undefined) return null;
    return { chain: this.db.link(first.blockHash)!.chainId, requestKey: pactId };
  }

  /**
   * An account: `coin.details` run with `local` on every chain (its balance and guard, or the
   * failure, e.g. no such account there), and its most recent transfers seen by this node.
   */
  async account(name: string): Promise<string> {
    checkAccountName(name);
    const details = await Promise.all(
      this.chainIds.map(
        async (chainId) => `{"chain":${chainId},"result":${await this.details(chainId, name)}}`,
      ),
    );
    const transfers = this.node.explorer
      .recentTransfers(name, MAX_ACCOUNT_TRANSFERS)
      .map((t) => transferJson(t, this.onBranch({ hash: t.blockHash, chainId: t.chainId })));
    return `{"account":${str(name)},"chains":[${details.join(",")}],"transfers":[${transfers.join(",")}]}`;
  }

  /** `(coin.details account)` on a chain through `local`, the account passed as data. */
  private details(chainId: number, account: string): Promise<string> {
    const payload = {
      payload: {
        kind: "exec" as const,
        code: '(coin.details (read-msg "account"))',
        data: parseJson(str({ account })),
      },
      meta: {
        kind: "public" as const,
        creationTime: Math.floor(Date.now() / 1000),
        ttl: 600,
        gasLimit: DETAILS_GAS_LIMIT,
        chainId: String(chainId),
        gasPrice: new JsonNumber("0.00000001"),
        sender: "",
      },
      signers: [],
      verifiers: null,
      networkId: this.node.network.networkId,
      nonce: "braid-explorer",
    };
    const parsed = parseCommand(signCommand(encodeCommandPayload(payload), [], "blake2b"));
    if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join("; "));
    return this.node.commands.local(chainId, parsed.command, {
      preflight: false,
      rewindDepth: 0n,
    });
  }

  /**
   * The latest blocks across all chains, newest first: the current branch's last few blocks of
   * every chain (enough for {@link MAX_RECENT_BLOCKS} in all), by creation time.
   */
  recentBlocks(): string {
    const perChain = Math.ceil(MAX_RECENT_BLOCKS / this.node.network.chainCount) + 1;
    const headers: BlockHeader[] = [];
    for (const head of this.node.heads.cut().values()) {
      let at: BlockHeader | undefined = head;
      for (let i = 0; i < perChain && at !== undefined; i++) {
        headers.push(at);
        at = at.height === 0 ? undefined : this.db.header(at.parent);
      }
    }
    headers.sort((a, b) => b.creationTime - a.creationTime || a.chainId - b.chainId);
    const items = headers.slice(0, MAX_RECENT_BLOCKS).map((h) => {
      const txCount = this.db.payload(h.payloadHash)?.transactions.length ?? 0;
      return `{"chain":${h.chainId},"height":${h.height},"hash":${str(encodeBase64Url(h.hash))},"creationTime":${h.creationTime},"txCount":${txCount}}`;
    });
    return `[${items.join(",")}]`;
  }

  /**
   * This node's cut (height, and weight as a decimal string) and the address it announces (null
   * when it announces none), and each peer with where its last cut stands against this node's.
   */
  peers(): string {
    const cut = this.node.heads.cut();
    const self = this.network?.self ?? null;
    return str({
      address: self === null ? null : peerKey(self.address),
      cutHeight: cutHeight(cut),
      cutWeight: cutWeight(cut).toString(),
      peers: this.network?.status() ?? [],
    });
  }

  /**
   * What a search text names: `{"kind":"block","hash"}` for a stored block's hash or a chain
   * and height (`3/120`, the current branch's block), `{"kind":"transaction","requestKey"}`
   * for a request key of a stored command, else `{"kind":"account","account"}`.
   */
  search(text: string): string {
    const q = text.trim();
    if (q === "") throw new HttpError(400, "the search text is empty");
    if (q.length > MAX_SEARCH_LENGTH) {
      throw new HttpError(400, `the search text is longer than ${MAX_SEARCH_LENGTH} characters`);
    }
    const atHeight = /^([0-9]{1,9})\/([0-9]{1,15})$/.exec(q);
    if (atHeight !== null) return this.blockAtHeight(Number(atHeight[1]), Number(atHeight[2]));
    if (isRequestKey(q)) {
      const bytes = decodeBase64Url(q);
      if (this.db.link(bytes) !== undefined) return str({ kind: "block", hash: q });
      if (this.db.transactionLocations(bytes).length > 0) {
        return str({ kind: "transaction", requestKey: q });
      }
    }
    return str({ kind: "account", account: q });
  }

  private blockAtHeight(chainId: number, height: number): string {
    const head = this.node.heads.head(chainId);
    if (head === undefined) {
      throw new HttpError(
        404,
        `no chain ${chainId}: the chains are 0 to ${this.node.network.chainCount - 1}`,
      );
    }
    const hash = this.db.ancestorHashAt(head.hash, height);
    if (hash === undefined) {
      throw new HttpError(
        404,
        `chain ${chainId} has no block at height ${height} (its head is at ${head.height})`,
      );
    }
    return str({ kind: "block", hash: encodeBase64Url(hash) });
  }
}

function transferJson(t: TransferRecord, onBranch: boolean): string {
  return `{"chain":${t.chainId},"height":${t.height},"blockHash":${str(encodeBase64Url(t.blockHash))},"requestKey":${str(t.requestKey)},"sender":${str(t.sender)},"receiver":${str(t.receiver)},"amount":${t.amount},"onBranch":${onBranch}}`;
}

/** An account name: 1 to 256 characters; 400 otherwise. */
function checkAccountName(name: string): void {
  if (name.length === 0 || name.length > MAX_INDEXED_ACCOUNT_LENGTH) {
    throw new HttpError(
      400,
      `an account name has 1 to ${MAX_INDEXED_ACCOUNT_LENGTH} characters, got ${name.length}`,
    );
  }
}
