/**
 * This node in a network of Braid (or Chainweb-speaking) nodes: its peer database, cut gossip,
 * cut polling and the sync that follows, and the peers' mempools (mempool-sync.ts). Built by the
 * CLI beside the HTTP service, which serves the P2P API's routes from it (src/api/p2p/).
 *
 * - **Gossip**: every move of this node's cut is sent to every peer that may be asked
 *   (`PUT /cut`, this node as the origin), at most one send in flight per peer, carrying the
 *   recent blocks the peer is not known to have (gossip-blocks.ts).
 * - **Polling**: every {@link CUT_POLL_INTERVAL_MS} each peer's cut is asked for (`GET /cut`), so
 *   a node that missed gossip (started late, partitioned, restarted) catches up.
 * - **Sync**: cuts with blocks this node lacks, from gossip or polling, are synced one at a time,
 *   the heaviest claimed first (cut-sync.ts), through the node's import pipeline.
 * - **Mempools**: every {@link MEMPOOL_SYNC_INTERVAL_MS} each peer's pending commands are pulled
 *   (mempool-sync.ts), and a command that arrives here is pushed to every peer at once.
 * - **Discovery**: on start and every {@link PEER_DISCOVERY_INTERVAL_MS} this node announces
 *   itself (`PUT /cut/peer`) and reads its peers' peers (`GET /cut/peer`).
 * - **Verification**: an address enters the peer database only once it answered as a Chainweb
 *   peer of this network (its page of peers, `GET /cut/peer`): an announced one before the
 *   announcement is answered; a learnt one (a peer's peer, the unknown origin of a cut) in the
 *   background, at most {@link MAX_PEER_VERIFICATIONS} at once. No other request goes to an
 *   address that was not verified.
 */
import {
  CUT_ATTACHMENT_LIMIT,
  type CutAttachments,
  type CutHashes,
  cutWeight,
  encodeCutHashes,
} from "../chain/cut/cut.ts";
import { ImportError, type NodePorts, type StoredBlock } from "../node/ports.ts";
import { CutSync, PeerProtocolError, peerCut } from "./cut-sync.ts";
import { GossipBlocks } from "./gossip-blocks.ts";
import { MEMPOOL_SYNC_INTERVAL_MS, MempoolSync } from "./mempool-sync.ts";
import { OneAtATime } from "./one-at-a-time.ts";
import { PeerClient, PeerLimitError, PeerRequestError } from "./peer-client.ts";
import { PeerDb, type PeerEntry } from "./peer-db.ts";
import { decodePeerInfo, type PeerAddress, type PeerInfo, peerKey } from "./peer-info.ts";

/** How often each peer's cut is polled. */
export const CUT_POLL_INTERVAL_MS = 1_000;
/** How often peers are asked for their peers and told of this one. */
export const PEER_DISCOVERY_INTERVAL_MS = 10_000;
/** How often the progress of a long sync is logged. */
export const SYNC_PROGRESS_INTERVAL_MS = 2_000;
/** A sync of at least this many blocks logs its progress. */
export const SYNC_PROGRESS_MIN_BLOCKS = 1_000;
/**
 * The most learnt addresses (a peer's peers, the unknown origins of cuts) being verified at once;
 * more are dropped (a peer's peers are read again at the next discovery).
 */
export const MAX_PEER_VERIFICATIONS = 4;

export interface NetworkOptions {
  /** The peers given in the configuration (`--peer`, `peers:`). */
  readonly peers: readonly PeerAddress[];
  readonly maxPeers: number;
  /** Where the peer database is kept; null keeps nothing. */
  readonly dataDir: string | null;
  /**
   * Over HTTPS: this node's id (its certificate's fingerprint), and its peers are called over
   * HTTPS too; absent: plain HTTP, and the id is null.
   */
  readonly https?: { readonly id: string };
}

export interface NetworkLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export type NetworkPorts = Pick<
  NodePorts,
  "network" | "blocks" | "heads" | "sync" | "events" | "commands" | "mempools"
>;

/** A peer as the explorer and `/info` show it. */
export interface PeerStatus {
  readonly address: string;
  readonly configured: boolean;
  /** Its last cut's height and whether it is heavier, lighter or as heavy as this node's. */
  readonly cutHeight: number | null;
  readonly relation: "ahead" | "behind" | "same" | null;
  /** Why it is not asked at the moment, or why its last request failed; null while it answers. */
  readonly problem: string | null;
}

export class P2PNetwork {
  readonly peers: PeerDb;
  private readonly sync: CutSync;
  private readonly clients = new Map<string, PeerClient>();
  /** The newest cut each peer offered that has blocks this node lacks. */
  private readonly offered = new Map<string, CutHashes>();
  private syncing = false;
  /** Why the last sync stopped when it was not the peer's doing; null once a sync succeeds. */
  private lastSyncStop: string | null = null;
  private gossipQueued = false;
  /** Cuts sent to peers, one send per peer at a time, the newest cut after it when it moved. */
  private readonly gossips = new OneAtATime(() => this.closed);
  private readonly gossipBlocks = new GossipBlocks();
  private readonly onBlock = (_chainId: number, block: StoredBlock) =>
    this.gossipBlocks.stored(block);
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;
  private readonly onCut = () => this.queueGossip();
  private readonly mempools: MempoolSync;
  /** Peers whose mempools are being pulled; pushes of new commands, one per peer and chain. */
  private readonly pulling = new Set<string>();
  private readonly pushes = new OneAtATime(() => this.closed);
  private readonly onPending = (chainId: number) => this.pushPending(chainId);
  /** The learnt addresses being verified ({@link MAX_PEER_VERIFICATIONS} at most). */
  private readonly verifying = new Set<string>();
  /** The address this node tells its peers to reach it at; null: it does not announce itself. */
  private announce: PeerAddress | null = null;

  constructor(
    private readonly ports: NetworkPorts,
    private readonly options: NetworkOptions,
    private readonly log: NetworkLog,
  ) {
    const self = () => (this.announce === null ? null : peerKey(this.announce));
    this.peers = new PeerDb(options.dataDir, options.maxPeers, self, Date.now, (event) => {
      if (event.kind === "joined") log.info(`peer ${event.key} joined`);
      else {
        log.warn(`peer ${event.key} dropped: ${event.reason}`);
        this.clients.delete(event.key);
        this.mempools.forget(event.key);
        this.gossipBlocks.forget(event.key);
      }
    });
    this.sync = new CutSync(ports);
    this.mempools = new MempoolSync(ports);
  }

  /**
   * Loads the peers, starts gossip, polling and discovery; `announce` is the address this node
   * tells its peers (null: it does not announce itself, and peers reach it by `--peer` only).
   */
  start(announce: PeerAddress | null): void {
    this.announce = announce;
    this.peers.load(this.options.peers.map((address) => ({ id: null, address })));
    this.ports.events.on("cut", this.onCut);
    this.ports.events.on("block", this.onBlock);
    this.ports.events.on("pending", this.onPending);
    this.timers.push(setInterval(() => this.poll(), CUT_POLL_INTERVAL_MS));
    this.timers.push(setInterval(() => this.pullMempools(), MEMPOOL_SYNC_INTERVAL_MS));
    this.timers.push(setInterval(() => this.discover(), PEER_DISCOVERY_INTERVAL_MS));
    for (const timer of this.timers) timer.unref();
    this.discover();
    this.poll();
  }

  /** This node as a peer object, if it announces itself. */
  get self(): PeerInfo | null {
    return this.announce === null
      ? null
      : { id: this.options.https?.id ?? null, address: this.announce };
  }

  /**
   * A cut a peer sent (`PUT /cut`) from the address `from`: synced from its origin when it has
   * blocks this node lacks. A peer backed off for failed requests is asked again at once (it
   * reached this node); one left alone for something invalid is not heard. An origin that is not
   * a peer is refused (false, chainweb-node's `401 Unknown peer`); when the cut came from the
   * origin's own address it is verified meanwhile, and once it answers it joins and its cut is
   * synced. A cut naming another address as its origin makes this node call nobody.
   */
  receiveCut(cut: CutHashes, origin: PeerInfo, from: string): boolean {
    const entry = this.peers.get(peerKey(origin.address));
    if (entry === undefined) {
      if (sameHost(origin.address.hostname, from)) {
        this.verifyLearnt(origin, (joined) => this.heard(joined, cut));
      }
      return false;
    }
    this.heard(entry, cut);
    return true;
  }

  private heard(entry: PeerEntry, cut: CutHashes): void {
    this.peers.reachedUs(entry);
    if (entry.notBefore > Date.now()) return;
    this.offer(entry, cut);
  }

  /**
   * A peer announcing itself (`PUT /cut/peer`): added once it answers as a Chainweb peer of this
   * network at the address it gave; the reason it was not, otherwise.
   */
  async addAnnounced(info: PeerInfo): Promise<string | null> {
    if (this.peers.get(peerKey(info.address)) !== undefined) return null;
    const problem = await this.verify(info);
    if (problem !== null) return problem;
    if (this.peers.add(info) === null)
      return `this node's peer database is full (${this.options.maxPeers} peers)`;
    this.peers.save();
    return null;
  }

  /**
   * Whether `info` answers as a Chainweb peer of this network (a page of its peers, asked for
   * under this network's name): null when it does, else why not. Asked with a client of its own:
   * the clients kept are those of peers.
   */
  private async verify(info: PeerInfo): Promise<string | null> {
    const key = peerKey(info.address);
    if (this.announce !== null && key === peerKey(this.announce)) {
      return `${key} is this node's own address`;
    }
    const client = new PeerClient(info.address, this.ports.network.version.name, this.scheme);
    try {
      const page = await client.call("getPeers", { query: { limit: 1 } });
      if (!Array.isArray((page as { items?: unknown } | undefined)?.items)) {
        return `the peer ${key} does not answer as a Chainweb peer (its peer page has no items)`;
      }
    } catch (e) {
      return `the peer ${key} is not reachable: ${e instanceof Error ? e.message : String(e)}`;
    }
    return null;
  }

  /**
   * Verifies a learnt address in the background, and adds it once it answers (then `joined`).
   * Nothing is done when it is being verified already, when {@link MAX_PEER_VERIFICATIONS} are,
   * or when the database has no room for it.
   */
  private verifyLearnt(info: PeerInfo, joined?: (entry: PeerEntry) => void): void {
    const key = peerKey(info.address);
    if (this.verifying.has(key) || this.verifying.size >= MAX_PEER_VERIFICATIONS) return;
    if (!this.peers.hasRoom()) return;
    this.verifying.add(key);
    this.verify(info)
      .then((problem) => {
        if (problem !== null || this.closed) return;
        const entry = this.peers.add(info);
        if (entry === null) return;
        this.peers.save();
        joined?.(entry);
      })
      .catch((e: unknown) =>
        this.log.error(`peer ${key}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
      )
      .finally(() => this.verifying.delete(key));
  }

  /** Each known peer and where its cut stands against this node's. */
  status(): PeerStatus[] {
    const ours = cutWeight(this.ports.heads.cut());
    const now = Date.now();
    return this.peers.all().map((p) => ({
      address: p.key,
      configured: p.configured,
      cutHeight: p.lastCut?.height ?? null,
      relation:
        p.lastCut === null
          ? null
          : p.lastCut.weight > ours
            ? "ahead"
            : p.lastCut.weight < ours
              ? "behind"
              : "same",
      problem:
        p.notBefore > now && p.penalty !== null
          ? p.penalty
          : p.failures > 0
            ? `${p.lastProblem ?? "not answering"} (${p.failures} failed requests in a row)`
            : null,
    }));
  }

  close(): void {
    this.closed = true;
    this.ports.events.off("cut", this.onCut);
    this.ports.events.off("block", this.onBlock);
    this.ports.events.off("pending", this.onPending);
    for (const timer of this.timers) clearInterval(timer);
    this.peers.save();
  }

  private get scheme(): "http" | "https" {
    return this.options.https === undefined ? "http" : "https";
  }

  private clientOf(entry: PeerEntry): PeerClient {
    let client = this.clients.get(entry.key);
    if (client === undefined) {
      const { key } = entry;
      client = new PeerClient(
        entry.info.address,
        this.ports.network.version.name,
        this.scheme,
        undefined,
        (id) => this.peers.identify(key, id),
      );
      this.clients.set(key, client);
    }
    return client;
  }

  private offer(entry: PeerEntry, cut: CutHashes): void {
    entry.lastCut = { height: cut.height, weight: cut.weight };
    this.gossipBlocks.peerHas(entry.key, cut.heads);
    if (this.sync.knowsAll(cut)) {
      if (cut.weight > cutWeight(this.ports.heads.cut())) {
        try {
          this.sync.offer(cut);
        } catch (e) {
          this.failedWith(entry, e);
        }
      }
      return;
    }
    const waiting = this.offered.get(entry.key);
    this.offered.set(
      entry.key,
      waiting === undefined ? cut : { ...cut, attached: joined(waiting.attached, cut.attached) },
    );
    void this.runSyncs();
  }

  /** Syncs the offered cuts one at a time, the heaviest claimed first. */
  private async runSyncs(): Promise<void> {
    if (this.syncing) return;
    this.syncing = true;
    try {
      while (!this.closed && this.offered.size > 0) {
        const [key, cut] = [...this.offered].reduce((a, b) => (b[1].weight > a[1].weight ? b : a));
        this.offered.delete(key);
        const entry = this.peers.get(key);
        // A peer may offer a cut again while its last one is synced (polled, then gossiped):
        // if that sync penalised or backed it off, the new offer waits for it to be asked again.
        if (entry === undefined || entry.notBefore > Date.now() || this.sync.knowsAll(cut))
          continue;
        await this.syncFrom(entry, cut);
      }
    } finally {
      this.syncing = false;
    }
  }

  private async syncFrom(entry: PeerEntry, cut: CutHashes): Promise<void> {
    let lastLog = performance.now();
    const started = lastLog;
    let logged = false;
    try {
      const outcome = await this.sync.syncTo(this.clientOf(entry), cut, (done, fetched) => {
        const now = performance.now();
        if (fetched < SYNC_PROGRESS_MIN_BLOCKS || now - lastLog < SYNC_PROGRESS_INTERVAL_MS) return;
        lastLog = now;
        logged = true;
        this.log.info(
          `sync from ${entry.key}: ${done} of ${fetched} blocks (${Math.round((done * 1000) / (now - started))} blocks/s)`,
        );
      });
      this.peers.succeeded(entry);
      this.lastSyncStop = null;
      if (logged || outcome.blocks >= SYNC_PROGRESS_MIN_BLOCKS) {
        this.log.info(
          `sync from ${entry.key}: ${outcome.blocks} blocks in ${(outcome.millis / 1000).toFixed(1)} s (${Math.round((outcome.blocks * 1000) / Math.max(1, outcome.millis))} blocks/s)`,
        );
      }
    } catch (e) {
      this.failedWith(entry, e);
    }
  }

  /**
   * A failed request backs the peer off; an invalid answer or block, or more bytes than its
   * bound, penalises it (logged once: the requests cut off with it fail together).
   */
  private failedWith(entry: PeerEntry, e: unknown): void {
    if (e instanceof PeerLimitError) {
      if (entry.penalty === e.reason && entry.notBefore > Date.now()) return;
      this.log.warn(`peer ${entry.key}: ${e.reason}; not asked for a while`);
      this.peers.penalize(entry, e.reason);
    } else if (e instanceof PeerRequestError) {
      // Said once while it lasts: an answered poll between two failed syncs does not repeat it.
      const problem = `${e.endpoint}: ${e.reason}`;
      if (entry.lastProblem !== problem) this.log.warn(`peer ${entry.key}: ${problem}`);
      entry.lastProblem = problem;
      this.peers.failed(entry, e.reason);
    } else if (e instanceof ImportError || e instanceof PeerProtocolError) {
      const reason =
        e instanceof ImportError
          ? e.message
          : `sent what is not Chainweb's P2P protocol: ${e.message}`;
      this.log.warn(`peer ${entry.key}: ${reason}; not asked for a while`);
      this.peers.penalize(entry, reason);
    } else {
      // Not the peer's doing (the disk failed under an import, …): the peer is kept, and the
      // reason said once while syncs keep stopping for it (a full disk stops one every poll).
      const reason = e instanceof Error ? e.message : String(e);
      if (reason !== this.lastSyncStop) {
        this.log.error(
          `sync from ${entry.key} stopped: ${e instanceof Error ? (e.stack ?? e.message) : reason}`,
        );
      }
      this.lastSyncStop = reason;
    }
  }

  private poll(): void {
    for (const entry of this.peers.available()) {
      this.clientOf(entry)
        .call("getCut")
        .then((value) => {
          const cut = peerCut(value, this.ports.network.chainCount);
          this.peers.succeeded(entry);
          this.offer(entry, cut);
        })
        .catch((e: unknown) => this.failedWith(entry, e));
    }
  }

  /** Pulls each peer's pending commands (one pull in flight per peer). */
  private pullMempools(): void {
    for (const entry of this.peers.available()) {
      if (this.pulling.has(entry.key)) continue;
      this.pulling.add(entry.key);
      this.mempools
        .syncAll(this.clientOf(entry))
        .then(() => this.peers.succeeded(entry))
        .catch((e: unknown) => this.failedWith(entry, e))
        .finally(() => this.pulling.delete(entry.key));
    }
  }

  /**
   * Pushes the commands that arrived on a chain to every peer (one push per peer and chain in
   * flight; one that arrives meanwhile is pushed when it ends).
   */
  private pushPending(chainId: number): void {
    for (const entry of this.peers.available()) this.pushTo(entry, chainId);
  }

  private pushTo(entry: PeerEntry, chainId: number): void {
    this.pushes.run(`${entry.key}/${chainId}`, () =>
      this.mempools
        .push(this.clientOf(entry), chainId)
        .catch((e: unknown) => this.failedWith(entry, e)),
    );
  }

  private queueGossip(): void {
    if (this.gossipQueued || this.announce === null) return;
    this.gossipQueued = true;
    setImmediate(() => {
      this.gossipQueued = false;
      if (!this.closed) this.gossip();
    });
  }

  /**
   * Sends this node's cut to every peer that may be asked: one send in flight per peer, and a
   * peer whose cut moved meanwhile is sent the newest cut when it ends.
   */
  private gossip(): void {
    for (const entry of this.peers.available()) this.gossipTo(entry);
  }

  private gossipTo(entry: PeerEntry): void {
    this.gossips.run(entry.key, () => {
      const cut = this.ports.heads.cut();
      const attached = this.gossipBlocks.attachmentsFor(entry.key, cut);
      const send = (blocks?: CutAttachments) =>
        this.clientOf(entry).call("putCut", {
          bodyText: encodeCutHashes(cut, this.ports.network.version.name, this.self, blocks),
        });
      return send(attached)
        .catch((e: unknown) => {
          const status = e instanceof PeerRequestError ? e.status : undefined;
          // A peer that does not know this node yet (401, Unknown peer) learns of it from its
          // announcement, or verifies it now: nothing failed.
          if (status === 401) return "unknown";
          // A peer that refuses the blocks carried (its body limit is lower: Braid answers 400,
          // others 413) still gets the cut, and asks for them.
          if (status !== undefined && status < 500 && attached.headers.length > 0) return send();
          throw e;
        })
        .then((answer) => {
          if (answer === "unknown") return;
          // It has the cut now, or syncs it from this node: its blocks need not travel again.
          this.gossipBlocks.peerHas(entry.key, cut);
          this.peers.succeeded(entry);
        })
        .catch((e: unknown) => this.failedWith(entry, e));
    });
  }

  /** Tells each peer of this node and learns of theirs. */
  private discover(): void {
    const self = this.self;
    for (const entry of this.peers.available()) {
      const client = this.clientOf(entry);
      if (self !== null) {
        // A failure is asked again at the next round.
        client.call("putPeer", { body: self }).catch(() => undefined);
      }
      client
        .call("getPeers")
        .then((page) => {
          const items = (page as { items?: unknown } | undefined)?.items;
          if (!Array.isArray(items)) throw new PeerProtocolError("its peer page has no items");
          for (const item of items) {
            const info = decodePeerInfo(item);
            if (typeof info !== "string" && this.peers.get(peerKey(info.address)) === undefined) {
              this.verifyLearnt(info);
            }
          }
        })
        .catch((e: unknown) => this.failedWith(entry, e));
    }
  }
}

/**
 * The blocks two cuts of one peer carry, for the sync of the later one (the earlier one's blocks
 * are its ancestors'); the later one's alone when both are more than a cut may carry.
 */
function joined(earlier: CutAttachments, later: CutAttachments): CutAttachments {
  if (earlier.headers.length + later.headers.length > CUT_ATTACHMENT_LIMIT) return later;
  if (earlier.payloads.length + later.payloads.length > CUT_ATTACHMENT_LIMIT) return later;
  return {
    headers: [...earlier.headers, ...later.headers],
    payloads: [...earlier.payloads, ...later.payloads],
  };
}

/**
 * Whether a request from the address `from` (as the socket gives it: an IPv4 address may come as
 * `::ffff:a.b.c.d`) came from the host `hostname` names (an address, not a name: a name is not
 * resolved).
 */
function sameHost(hostname: string, from: string): boolean {
  const plain = (address: string) => address.toLowerCase().replace(/^::ffff:(?=\d+\.)/, "");
  return plain(hostname.replace(/^\[(.*)\]$/, "$1")) === plain(from);
}
