/**
 * An in-process node served for tests with its P2P network (not built into `dist/`), through the
 * composition root's `serveNode`: the node's HTTP service on 127.0.0.1 and a free port, the P2P
 * routes served from its `P2PNetwork` with `peers`; every fault (a 5xx) is pushed to `faults` for
 * the test to assert empty. The network is started by the caller (`network.start(address)`), so a
 * test can look at it before.
 */
import type { RunningNodeServer } from "../../api/service/server.ts";
import type { BraidNode } from "../../node/node.ts";
import type { NetworkLog, P2PNetwork } from "../../p2p/network.ts";
import type { PeerAddress } from "../../p2p/peer-info.ts";
import { serveNode } from "../start-node.ts";

export const SILENT_LOG: NetworkLog = { info() {}, warn() {}, error() {} };

export interface ServedNetwork {
  readonly network: P2PNetwork;
  readonly server: RunningNodeServer;
  readonly address: PeerAddress;
}

export async function serveWithNetwork(
  node: BraidNode,
  {
    peers = [],
    config = {},
    faults,
    log = SILENT_LOG,
    bodyLimit = 1 << 20,
  }: {
    peers?: readonly PeerAddress[];
    config?: unknown;
    faults: unknown[];
    log?: NetworkLog;
    /** The largest request body the node takes (bytes). */
    bodyLimit?: number;
  },
): Promise<ServedNetwork> {
  const { network, server } = await serveNode(node, {
    api: { host: "127.0.0.1", port: 0, bodyLimit, listenTimeoutSeconds: 5, devControls: false },
    p2p: { peers, maxPeers: 8, dataDir: null, config },
    log,
    onFault: (e) => faults.push(e),
  });
  return { network, server, address: { hostname: "127.0.0.1", port: server.port } };
}
