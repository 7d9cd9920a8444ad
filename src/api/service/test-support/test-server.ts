/**
 * The node's HTTP service for tests (not built into `dist/`): on this machine, a free port, a
 * 1 MiB body limit; every fault (a 5xx, which should never happen) is pushed to `faults` for
 * the test to assert empty.
 */
import assert from "node:assert/strict";
import type { ParsedCommand } from "../../../command/index.ts";
import type { BraidNode } from "../../../node/node.ts";
import { type RunningNodeServer, startNodeServer } from "../server.ts";

export function serveForTest(
  node: BraidNode,
  faults: unknown[],
  listenTimeoutSeconds = 5,
): Promise<RunningNodeServer> {
  return startNodeServer(node.ports, {
    host: "127.0.0.1",
    port: 0,
    bodyLimit: 1 << 20,
    listenTimeoutSeconds,
    onFault: (e) => faults.push(e),
  });
}

/** POSTs `body` as JSON to `url`, asserts a 200 and returns the parsed answer. */
export async function postJson(url: string, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return JSON.parse(text);
}

/** A parsed command in the form `send` takes it. */
export function wireCommand(command: ParsedCommand) {
  return { hash: command.hash, sigs: command.sigs.map((sig) => ({ sig })), cmd: command.cmd };
}
