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
  "network" | "blocks" | "explorer" | "heads" | "commands" | "mempools"
>;

/** What the explorer reads of the node's P2P network: its own address and its peers. */
export type ExplorerPeers = Pick<P2PNetwork, "self" | "status">;

import {
  Decimal,
  encodeJsonText,
  JsonNumber,
  type JsonObject,
  type JsonValue,
  jsonNumberToDecimal,
  parseJson,
  parseModuleName,
} from "../../pact/values/index.ts";
import { HttpError } from "../http/errors.ts";
import { requestKey } from "../http/request-keys.ts";
import { CHAIN_ID, parseHash } from "../service/request-parts.ts";
import { moduleOutline } from "./module-outline.ts";

/** What `describe-module` tells of a module on one chain. */
interface DescribedModule {
  readonly code: string;
  readonly hash: string;
  /** The request key of the command that deployed it. */
  readonly txHash: string;
  readonly interfaces: readonly string[];
}

/** Most transfers an account view lists. */
export const MAX_ACCOUNT_TRANSFERS = 50;
/** Most blocks in the latest-blocks list. */
export const MAX_RECENT_BLOCKS = 40;
/** Blocks of each chain's current branch looked at for the latest blocks holding commands. */
export const MAX_SCANNED_BLOCKS = 100;
/** Most pending commands listed per chain in the mempool view. */
export const MAX_MEMPOOL_LISTED = 50;
/** Most `cont` commands listed for one defpact. */
export const MAX_CONTINUATIONS = 16;
/** Longest search text looked at (an account name is at most 256 characters). */
export const MAX_SEARCH_LENGTH = MAX_INDEXED_ACCOUNT_LENGTH;
/** Gas limit of the `local` call that describes a module on each chain (coin's code is long). */
export const MODULE_GAS_LIMIT = 100_000;
/** Gas limit of the `local` call that reads an account's details on each chain. */
const DETAILS_GAS_LIMIT = 10_000;

const utf8 = new TextDecoder();
const str = JSON.stringify;

/** Stored JSON (bytes or text) as JSON text: as it is when it parses, else as a string. */
function embed(json: Uint8Array | string): string {
  const text = typeof json === "string" ? json : utf8.decode(json);
  try {
    JSON.parse(text);
    return text;
  } catch {
    return str(text);
  }
}

/** A command `{"hash","sigs","cmd"}` (stored bytes or text) with `cmd` (itself JSON text) embedded parsed. */
function embedCommand(command: Uint8Array | string): string {
  const text = typeof command === "string" ? command : utf8.decode(command);
  try {
    const parsed = JSON.parse(text) as { hash?: unknown; sigs?: unknown; cmd?: unknown };
    if (typeof parsed.cmd === "string") {
      JSON.parse(parsed.cmd);
      return `{"hash":${str(parsed.hash)},"sigs":${str(parsed.sigs ?? [])},"cmd":${parsed.cmd}}`;
    }
  } catch {
    // Not a command's JSON: embedded as it is below.
  }
  return embed(text);
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
    return `{"chain":${header.chainId},"height":${header.height},"hash":${str(hashText)},"onBranch":${this.onBranch(header)},"children":${str(children)},"weight":${str(header.weight.toString())},"target":${str(header.target.toString())},"header":${encodeHeaderJson(header)},"minerData":${embed(payload.minerData)},"coinbase":${embed(payload.coinbase)},"transactions":[${transactions.join(",")}]}`;
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
    const results = await Promise.all(this.chainIds.map((chainId) => this.details(chainId, name)));
    const details = results.map((result, chainId) => `{"chain":${chainId},"result":${result}}`);
    const { total, guard } = accountSummary(results);
    // Newest first; blocks of one height (genesis above all) in chain order.
    const transfers = this.node.explorer
      .recentTransfers(name, MAX_ACCOUNT_TRANSFERS)
      .sort((a, b) => b.height - a.height || a.chainId - b.chainId)
      .map((t) => transferJson(t, this.onBranch({ hash: t.blockHash, chainId: t.chainId })));
    return `{"account":${str(name)},"total":${str(total)},"guard":${guard},"chains":[${details.join(",")}],"transfers":[${transfers.join(",")}]}`;
  }

  /** `(coin.details account)` on a chain through `local`, the account passed as data. */
  private details(chainId: number, account: string): Promise<string> {
    return this.localRead(
      chainId,
      '(coin.details (read-msg "account"))',
      { account },
      DETAILS_GAS_LIMIT,
    );
  }

  /** Code run with `local` on a chain (unsigned, no sender), `data` as the command's data. */
  private localRead(
    chainId: number,
    code: string,
    data: Record<string, string>,
    gasLimit: number,
  ): Promise<string> {
    const payload = {
      payload: { kind: "exec" as const, code, data: parseJson(str(data)) },
      meta: {
        kind: "public" as const,
        creationTime: Math.floor(Date.now() / 1000),
        ttl: 600,
        gasLimit,
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
   * A module or interface: `describe-module` run with `local` on every chain, and from the lowest
   * chain holding it its code, hash, interfaces and outline (module-outline.ts); for each chain
   * holding it, its hash there and the stored transaction that deployed it. 404 when no chain
   * holds it.
   */
  async module(name: string): Promise<string> {
    if (name.length > MAX_SEARCH_LENGTH || parseModuleName(name) === null) {
      throw new HttpError(
        400,
        `not a module name (name or namespace.name): ${str(name.slice(0, 64))}`,
      );
    }
    const answers = await this.describeModule(name);
    const found = answers.flatMap((described, chainId) =>
      typeof described === "string" ? [] : [{ chainId, described }],
    );
    const first = found[0];
    if (first === undefined) {
      // Chain 0's reason, so that a failure other than a missing module (gas) shows.
      throw new HttpError(
        404,
        `no module ${name} is deployed on any chain (chain 0: ${answers[0]})`,
      );
    }
    const chains = found.map(({ chainId, described }) => ({
      chain: chainId,
      hash: described.hash,
      deployedBy: this.deployment(described.txHash),
    }));
    const { code, hash, interfaces } = first.described;
    return str({ module: name, hash, code, interfaces, outline: moduleOutline(code), chains });
  }

  /** `(describe-module name)` on every chain: its answer, or the failure's message. */
  private async describeModule(name: string): Promise<(DescribedModule | string)[]> {
    const results = await Promise.all(
      this.chainIds.map((chainId) =>
        this.localRead(
          chainId,
          '(describe-module (read-msg "module"))',
          { module: name },
          MODULE_GAS_LIMIT,
        ),
      ),
    );
    return results.map((text) => {
      const answer = parseJson(text);
      const data = successData(answer);
      if (data === undefined) return failureMessage(answer);
      const interfaces = data.get("interfaces");
      return {
        code: String(data.get("code")),
        hash: String(data.get("hash")),
        txHash: String(data.get("tx_hash") ?? ""),
        interfaces: Array.isArray(interfaces) ? interfaces.map(String) : [],
      };
    });
  }

  /** Where the command with request key `txHash` is stored (the current branch's first). */
  private deployment(
    txHash: string,
  ): { requestKey: string; blockHash: string; height: number } | null {
    if (!isRequestKey(txHash)) return null;
    const headers = this.db
      .transactionLocations(decodeBase64Url(txHash))
      .map((location) => this.db.header(location.blockHash)!)
      .sort((a, b) => Number(this.onBranch(b)) - Number(this.onBranch(a)));
    const header = headers[0];
    if (header === undefined) return null;
    return { requestKey: txHash, blockHash: encodeBase64Url(header.hash), height: header.height };
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
    headers.sort(newestFirst);
    const txCount = (h: BlockHeader) => this.db.payload(h.payloadHash)?.transactions.length ?? 0;
    return `[${headers
      .slice(0, MAX_RECENT_BLOCKS)
      .map((h) => blockSummary(h, txCount(h)))
      .join(",")}]`;
  }

  /**
   * The latest blocks holding commands, newest first: those among the last
   * {@link MAX_SCANNED_BLOCKS} blocks of each chain's current branch, at most
   * {@link MAX_RECENT_BLOCKS}. Blocks without commands share a few payloads, so each payload is
   * read once.
   */
  blocksWithTransactions(): string {
    const counts = new Map<string, number>();
    const txCount = (h: BlockHeader) => {
      const key = encodeBase64Url(h.payloadHash);
      let count = counts.get(key);
      if (count === undefined) {
        count = this.db.payload(h.payloadHash)?.transactions.length ?? 0;
        counts.set(key, count);
      }
      return count;
    };
    const found: { header: BlockHeader; count: number }[] = [];
    for (const head of this.node.heads.cut().values()) {
      let at: BlockHeader | undefined = head;
      for (let i = 0; i < MAX_SCANNED_BLOCKS && at !== undefined; i++) {
        const count = txCount(at);
        if (count > 0) found.push({ header: at, count });
        at = at.height === 0 ? undefined : this.db.header(at.parent);
      }
    }
    found.sort((a, b) => newestFirst(a.header, b.header));
    const items = found.slice(0, MAX_RECENT_BLOCKS).map((b) => blockSummary(b.header, b.count));
    return `{"scannedPerChain":${MAX_SCANNED_BLOCKS},"blocks":[${items.join(",")}]}`;
  }

  /**
   * Each chain's pending commands (those peers may see), at most {@link MAX_MEMPOOL_LISTED} per
   * chain, with how many are pending in all.
   */
  mempool(): string {
    const chains = this.chainIds.map((chainId) => {
      const { hashes } = this.node.mempools.pending(chainId);
      const listed = this.node.mempools
        .lookup(chainId, hashes.slice(0, MAX_MEMPOOL_LISTED))
        .flatMap((text) => (text === null ? [] : [embedCommand(text)]));
      return `{"chain":${chainId},"pending":${hashes.length},"commands":[${listed.join(",")}]}`;
    });
    return `[${chains.join(",")}]`;
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
   * for a request key of a stored command, `{"kind":"module","module"}` for the name of a module
   * or interface deployed on some chain, else `{"kind":"account","account"}`.
   */
  async search(text: string): Promise<string> {
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
    if (
      parseModuleName(q) !== null &&
      (await this.describeModule(q)).some((m) => typeof m !== "string")
    ) {
      return str({ kind: "module", module: q });
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

/**
 * An account's balance summed over the chains where it exists (a decimal's text, every place
 * kept; null where it exists on none), and its guard's JSON when every such chain has the same
 * guard ("null" otherwise).
 */
function accountSummary(results: readonly string[]): { total: string | null; guard: string } {
  let total: Decimal | null = null;
  const guards = new Set<string>();
  for (const text of results) {
    const data = successData(parseJson(text));
    if (data === undefined) continue;
    const balance = data.get("balance");
    const amount =
      balance instanceof Map
        ? Decimal.read(String(balance.get("decimal")))
        : jsonNumberToDecimal(balance as JsonNumber);
    if (amount !== null) total = (total ?? Decimal.ZERO).add(amount);
    guards.add(encodeJsonText(data.get("guard") ?? null));
  }
  return { total: total?.toString() ?? null, guard: guards.size === 1 ? [...guards][0]! : "null" };
}

/** The error message of a `local` result that failed. */
function failureMessage(answer: JsonValue): string {
  const result = answer instanceof Map ? answer.get("result") : undefined;
  const error = result instanceof Map ? result.get("error") : undefined;
  const message = error instanceof Map ? error.get("message") : undefined;
  return typeof message === "string" ? message : "failed";
}

/** The data of a `local` result that succeeded with an object. */
function successData(answer: JsonValue): JsonObject | undefined {
  if (!(answer instanceof Map)) return undefined;
  const result = answer.get("result");
  if (!(result instanceof Map) || result.get("status") !== "success") return undefined;
  const data = result.get("data");
  return data instanceof Map ? data : undefined;
}

/** Newest first, then by chain. */
function newestFirst(a: BlockHeader, b: BlockHeader): number {
  return b.creationTime - a.creationTime || a.chainId - b.chainId;
}

function blockSummary(h: BlockHeader, txCount: number): string {
  return `{"chain":${h.chainId},"height":${h.height},"hash":${str(encodeBase64Url(h.hash))},"creationTime":${h.creationTime},"txCount":${txCount}}`;
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
