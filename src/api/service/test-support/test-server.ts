/**
 * The node's HTTP service for tests (not built into `dist/`): on this machine, a free port, a
 * 1 MiB body limit; every fault (a 5xx, which should never happen) is pushed to `faults` for
 * the test to assert empty.
 */
import type { BraidNode } from "../../../node/node.ts";
import { type RunningNodeServer, startNodeServer } from "../server.ts";

export function serveForTest(
  node: BraidNode,
  faults: unknown[],
  listenTimeoutSeconds = 5,
): Promise<RunningNodeServer> {
  return startNodeServer(node, {
    host: "127.0.0.1",
    port: 0,
    bodyLimit: 1 << 20,
    listenTimeoutSeconds,
    onFault: (e) => faults.push(e),
  });
}
