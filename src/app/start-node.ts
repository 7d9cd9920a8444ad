/**
 * The composition root of a running node: a `BraidNode` with its P2P network and its HTTP service
 * (the service API, the P2P routes, the explorer). `startNode` opens the node from its options
 * and serves it, as `braid node` runs it (src/cli/commands/node.ts); `serveNode` serves a node
 * already open, for the tests that make their node first (`test-support/served-network.ts`).
 * Nothing else puts these parts together.
 */
import { type RunningNodeServer, startNodeServer } from "../api/service/server.ts";
import type { NodeLogger } from "../node/logger.ts";
import { BraidNode } from "../node/node.ts";
import type { NodeOptions } from "../node/options.ts";
import type { PeerAddress } from "../node/ports.ts";
import { certificateFingerprint } from "../p2p/certificate.ts";
import { type NetworkLog, P2PNetwork } from "../p2p/network.ts";

/** A certificate and its key, PEM: the service and the P2P API over HTTPS. */
export interface Tls {
  readonly cert: string;
  readonly key: string;
}

/** How a node is served: its HTTP service and its place among its peers. */
export interface Serving {
  readonly api: Pick<
    NodeOptions["api"],
    "host" | "port" | "bodyLimit" | "listenTimeoutSeconds" | "devControls"
  >;
  readonly p2p: {
    /** The peers to start from. */
    readonly peers: readonly PeerAddress[];
    readonly maxPeers: number;
    /** Where the peer database is kept; null keeps nothing. */
    readonly dataDir: string | null;
    /** The address peers are told; undefined: the service's, unless it listens on a wildcard. */
    readonly announce?: PeerAddress;
    /** What `GET /config` shows. */
    readonly config: unknown;
  };
  readonly tls?: Tls;
  readonly log: NetworkLog;
  /** Told of an error the service met (a 5xx answer, which should never happen). */
  readonly onFault: (error: unknown) => void;
}

export interface RunningNode {
  readonly node: BraidNode;
  readonly network: P2PNetwork;
  readonly server: RunningNodeServer;
  /** The address peers are told (null: none, the service listens on a wildcard address). */
  readonly announce: PeerAddress | null;
  /** Starts talking to peers (a caller may print or check something first). */
  startNetwork(): void;
  /** Stops the network, then the service, then closes the node. */
  close(): Promise<void>;
}

/** The node could not be opened (its data directory, its options): nothing was served. */
export class NodeOpenError extends Error {}

/**
 * Opens the node of `options` and serves it as they say. When serving fails (the port is taken),
 * the node is closed and what this start created in the data directory removed, and the error
 * is thrown as it came.
 */
export async function startNode(
  options: NodeOptions,
  log: NodeLogger,
  serving: Pick<Serving, "tls" | "onFault">,
): Promise<RunningNode> {
  let node: BraidNode;
  try {
    node = BraidNode.open(options, log);
  } catch (e) {
    throw new NodeOpenError(e instanceof Error ? e.message : String(e));
  }
  try {
    return await serveNode(node, { ...servingOf(options), ...serving, log });
  } catch (e) {
    await node.closeDiscardingNew();
    throw e;
  }
}

/** Serves an open node: its P2P network (not started yet) and its HTTP service. */
export async function serveNode(node: BraidNode, serving: Serving): Promise<RunningNode> {
  const { api, p2p, tls } = serving;
  const network = new P2PNetwork(
    node.ports,
    {
      peers: p2p.peers,
      maxPeers: p2p.maxPeers,
      dataDir: p2p.dataDir,
      ...(tls === undefined ? {} : { https: { id: certificateFingerprint(tls.cert) } }),
    },
    serving.log,
  );
  let server: RunningNodeServer;
  try {
    server = await startNodeServer(node.ports, {
      ...api,
      p2p: { network, config: p2p.config },
      ...(tls === undefined ? {} : { tls }),
      onFault: serving.onFault,
    });
  } catch (e) {
    network.close();
    throw e;
  }
  const announce = p2p.announce ?? wildcardless(api.host, server.port);
  return {
    node,
    network,
    server,
    announce,
    startNetwork: () => network.start(announce),
    async close() {
      network.close();
      await server.close();
      await node.close();
    },
  };
}

/** How the options serve a node. */
function servingOf(options: NodeOptions): Omit<Serving, "log" | "onFault"> {
  const { storage: _storage, ...config } = options;
  return {
    api: options.api,
    p2p: {
      peers: options.p2p.peers,
      maxPeers: options.p2p.maxPeers,
      dataDir: options.storage.dataDir,
      ...(options.p2p.announce === undefined ? {} : { announce: options.p2p.announce }),
      // `GET /config`: the options, without the data directory's place on this machine.
      config,
    },
  };
}

/** The service's address for peers, unless it listens on a wildcard address (then none). */
function wildcardless(host: string, port: number): PeerAddress | null {
  return host === "0.0.0.0" || host === "::" ? null : { hostname: host, port };
}
