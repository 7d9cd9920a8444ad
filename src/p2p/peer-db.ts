/**
 * The peer database: the peers this node knows (its configured `--peer`s and those it learnt of
 * through `/cut/peer` or a cut's origin), bounded, kept in the data directory (`peers.json`,
 * replaced whole through a temporary file, so a crash leaves the old list or the new one), and
 * for each peer whether it may be asked now:
 *
 * - a request that fails backs the peer off, doubling from {@link PEER_BACKOFF_MIN_MS} to
 *   {@link PEER_BACKOFF_MAX_MS}; a learnt peer that failed {@link PEER_DROP_FAILURES} times in a
 *   row is dropped (a configured one is kept, backed off);
 * - a peer that sent something invalid (a block the import pipeline refused, an answer that is
 *   not the protocol, more bytes than its bound) is left alone for {@link PEER_PENALTY_MS}.
 *
 * Only peers the network verified (they answered as Chainweb peers of this network) are added,
 * so a full database is full of such peers: a new one takes the place of a learnt peer whose
 * requests are failing or that is penalised (the one with the most failures), or is refused when
 * none is. Configured peers are never displaced.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decodePeerInfo, encodePeerInfo, type PeerInfo, peerKey } from "./peer-info.ts";

export const PEER_BACKOFF_MIN_MS = 500;
export const PEER_BACKOFF_MAX_MS = 30_000;
/** Failed requests in a row after which a learnt peer is dropped. */
export const PEER_DROP_FAILURES = 8;
/** How long a peer that sent something invalid is not asked. */
export const PEER_PENALTY_MS = 60_000;
/** The file of the peer database in the data directory. */
export const PEERS_FILE = "peers.json";

export interface PeerEntry {
  /** Its id is filled once known (`identify`): a configured peer's address comes without one. */
  info: PeerInfo;
  readonly key: string;
  /** Given in the configuration: never dropped. */
  readonly configured: boolean;
  failures: number;
  /** Not asked before this time (ms since the epoch). */
  notBefore: number;
  /** Why it is left alone, while it is. */
  penalty: string | null;
  /** The last failed request's endpoint and reason, while requests fail (logged once). */
  lastProblem: string | null;
  /** The last cut it sent or answered: its height and weight (for the explorer and /info). */
  lastCut: { readonly height: number; readonly weight: bigint } | null;
}

/** What happened to the peer database, for the node's log. */
export type PeerDbEvent =
  | { readonly kind: "joined"; readonly key: string }
  | { readonly kind: "dropped"; readonly key: string; readonly reason: string };

export class PeerDb {
  private readonly peers = new Map<string, PeerEntry>();

  constructor(
    /** The data directory, or null for a node that keeps nothing. */
    private readonly dataDir: string | null,
    private readonly maxPeers: number,
    /** This node's own address (`host:port`), never a peer of itself. */
    private readonly self: () => string | null,
    private readonly now: () => number,
    private readonly told: (event: PeerDbEvent) => void,
  ) {}

  /** The configured peers, then those kept in the data directory (an unreadable file is ignored). */
  load(configured: readonly PeerInfo[]): void {
    for (const info of configured) this.add(info, true);
    if (this.dataDir === null) return;
    let saved: unknown;
    try {
      saved = JSON.parse(readFileSync(join(this.dataDir, PEERS_FILE), "utf8"));
    } catch {
      return;
    }
    for (const value of Array.isArray(saved) ? saved : []) {
      const info = decodePeerInfo(value);
      if (typeof info !== "string") this.add(info, false);
    }
  }

  get size(): number {
    return this.peers.size;
  }

  /**
   * Adds a peer unless it is this node, known already, or the database is full of peers that
   * answer (a failing learnt one makes room: {@link failingLearnt}).
   */
  add(info: PeerInfo, configured = false): PeerEntry | null {
    const key = peerKey(info.address);
    const known = this.peers.get(key);
    if (known !== undefined) return known;
    if (key === this.self()) return null;
    if (!configured && this.peers.size >= this.maxPeers) {
      const failing = this.failingLearnt();
      if (failing === undefined) return null;
      const why = failing.penalty ?? `${failing.failures} failed requests in a row`;
      this.drop(failing, `replaced by ${key} (${why})`);
    }
    const entry: PeerEntry = {
      info,
      key,
      configured,
      failures: 0,
      notBefore: 0,
      penalty: null,
      lastProblem: null,
      lastCut: null,
    };
    this.peers.set(key, entry);
    this.told({ kind: "joined", key });
    return entry;
  }

  /** Whether a new learnt peer would be added now: there is room, or a failing learnt peer. */
  hasRoom(): boolean {
    return this.peers.size < this.maxPeers || this.failingLearnt() !== undefined;
  }

  /** The learnt peer a new one replaces in a full database: the one failing most, if any fails. */
  private failingLearnt(): PeerEntry | undefined {
    const now = this.now();
    // A penalised peer counts as failing more than one merely not answering.
    const failing = (p: PeerEntry) =>
      p.configured ? 0 : p.penalty !== null && p.notBefore > now ? PEER_DROP_FAILURES : p.failures;
    let worst: PeerEntry | undefined;
    for (const p of this.peers.values()) {
      if (failing(p) > (worst === undefined ? 0 : failing(worst))) worst = p;
    }
    return worst;
  }

  get(key: string): PeerEntry | undefined {
    return this.peers.get(key);
  }

  /** Every known peer, in the order they came. */
  all(): PeerEntry[] {
    return [...this.peers.values()];
  }

  /** The peers that may be asked now. */
  available(): PeerEntry[] {
    const now = this.now();
    return this.all().filter((p) => p.notBefore <= now);
  }

  /**
   * The peer's certificate named it `id` (its fingerprint, an answer over HTTPS): a peer known
   * without an id (configured by address) takes it, as chainweb-node names peers; a known id is
   * kept.
   */
  identify(key: string, id: string): void {
    const entry = this.peers.get(key);
    if (entry === undefined || entry.info.id !== null) return;
    entry.info = { ...entry.info, id };
  }

  /** The peer answered: its back-off and penalty end. */
  succeeded(entry: PeerEntry): void {
    entry.failures = 0;
    entry.lastProblem = null;
    if (entry.notBefore <= this.now()) entry.penalty = null;
  }

  /**
   * The peer reached this node (its gossip came): a back-off for failed requests ends, as it
   * answers again (after a partition heals, say); a penalty stays.
   */
  reachedUs(entry: PeerEntry): void {
    if (entry.penalty !== null && entry.notBefore > this.now()) return;
    entry.failures = 0;
    entry.lastProblem = null;
    entry.penalty = null;
    entry.notBefore = Math.min(entry.notBefore, this.now());
  }

  /** A request to the peer failed: backed off, or dropped (a learnt one, too many in a row). */
  failed(entry: PeerEntry, reason: string): void {
    entry.failures++;
    if (!entry.configured && entry.failures >= PEER_DROP_FAILURES) {
      this.drop(entry, `unreachable (${reason})`);
      return;
    }
    const backoff = Math.min(PEER_BACKOFF_MAX_MS, PEER_BACKOFF_MIN_MS * 2 ** (entry.failures - 1));
    entry.notBefore = Math.max(entry.notBefore, this.now() + backoff);
  }

  /** The peer sent something invalid: not asked for {@link PEER_PENALTY_MS}. */
  penalize(entry: PeerEntry, reason: string): void {
    entry.penalty = reason;
    entry.notBefore = this.now() + PEER_PENALTY_MS;
  }

  private drop(entry: PeerEntry, reason: string): void {
    if (this.peers.delete(entry.key)) this.told({ kind: "dropped", key: entry.key, reason });
  }

  /** Writes the peers to the data directory, replacing the file whole. */
  save(): void {
    if (this.dataDir === null) return;
    const file = join(this.dataDir, PEERS_FILE);
    const text = JSON.stringify(this.all().map((p) => encodePeerInfo(p.info)));
    writeFileSync(`${file}.tmp`, text);
    renameSync(`${file}.tmp`, file);
  }
}
