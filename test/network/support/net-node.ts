/**
 * A `braid node` inside a host's network namespace (`ip netns exec NAMESPACE node
 * dist/cli/main.js node --host ADDRESS --port PORT --data-dir DIR …`), started through
 * test/support/node-process.ts: its URL on the host's address, its log, and the crashes and
 * restarts a test puts it through. Its data directory outlives its processes, so a restart, after
 * a stop or a `kill -9`, finds what the node had stored.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type NodeProcess, startNode } from "../../support/node-process.ts";
import type { ProcessExit } from "../../support/supervised-process.ts";

/** The port a node listens on unless told otherwise (each host has an address of its own). */
export const DEFAULT_NODE_PORT = 1848;
/** How long waitForLog() waits unless told otherwise. */
const DEFAULT_LOG_WAIT_MS = 10_000;

export interface NetNodeOptions {
  /** More `braid node` flags (`--mining on-demand`, `--peer 10.77.0.2:1848`, …). */
  readonly args?: readonly string[];
  /** Default {@link DEFAULT_NODE_PORT}. */
  readonly port?: number;
  /** Default: a directory of its own in the network's temporary directory. */
  readonly dataDir?: string;
  /** How long to wait for the banner (default 20 s). */
  readonly startTimeoutMs?: number;
}

/** A node in a test network. */
export interface NetNode {
  /** The host it runs on. */
  readonly host: string;
  /** `http://ADDRESS:PORT`, for the test's own `fetch` and `@kadena/client` as for other nodes. */
  readonly url: string;
  /** `ADDRESS:PORT`, as `--peer` takes it. */
  readonly peer: string;
  readonly dataDir: string;
  /** The process running now (a new one after each restart()). */
  readonly process: NodeProcess;
  /** Everything the current process has written; its length marks "from now on" for waitForLog. */
  output(): string;
  /**
   * The first line of the current process's output, from character `from` on (default 0), that
   * matches `pattern`; rejects after `timeoutMs` (default 10 s) or when the process exits.
   */
  waitForLog(pattern: RegExp, options?: { timeoutMs?: number; from?: number }): Promise<string>;
  /** SIGKILL: a crash, no clean shutdown. */
  kill9(): Promise<ProcessExit>;
  /** SIGTERM (SIGKILL after 5 s). */
  stop(): Promise<ProcessExit>;
  /** Stops the node if it runs, then starts it again: same host, port, data directory and flags. */
  restart(): Promise<void>;
}

/** Starts a node in `namespace` listening on `address`; resolves once it serves. */
export async function startNetNode(
  host: string,
  namespace: string,
  address: string,
  networkDir: string,
  options: NetNodeOptions,
): Promise<NetNode> {
  const port = options.port ?? DEFAULT_NODE_PORT;
  const dataDir = options.dataDir ?? join(networkDir, `${host}-${port}`);
  mkdirSync(dataDir, { recursive: true });
  const start = () =>
    startNode({
      built: true,
      launcher: ["ip", "netns", "exec", namespace],
      dataDir,
      port,
      args: ["--host", address, ...(options.args ?? [])],
      ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
    });
  let current = await start();
  return {
    host,
    url: current.url,
    peer: `${address}:${port}`,
    dataDir,
    get process() {
      return current;
    },
    output: () => current.output(),
    waitForLog: (pattern, { timeoutMs = DEFAULT_LOG_WAIT_MS, from = 0 } = {}) =>
      current.waitForOutput(pattern, timeoutMs, from),
    kill9: () => current.kill(),
    stop: () => current.stop(),
    async restart() {
      await current.stop();
      current = await start();
    },
  };
}
