/**
 * Waiting for a network of nodes to agree: their cuts, read over HTTP, until every node names
 * the same head on every chain (or a deadline passes, with what each node said in the message);
 * what the nodes say of the development accounts, to compare.
 */
import { clientFor, readCommand } from "../../e2e/support/kadena.ts";
import type { NetNode } from "./net-node.ts";

interface CutAnswer {
  readonly height: number;
  readonly hashes: Record<string, { readonly hash: string; readonly height: number }>;
}

export async function cutOf(node: NetNode): Promise<CutAnswer> {
  const response = await fetch(`${node.url}/chainweb/0.0/development/cut`);
  if (!response.ok) throw new Error(`${node.url}/cut answered ${response.status}`);
  return (await response.json()) as CutAnswer;
}

/** The heads of a cut as one comparable string. */
export function headsOf(cut: CutAnswer): string {
  return Object.keys(cut.hashes)
    .sort((a, b) => Number(a) - Number(b))
    .map((c) => cut.hashes[c]!.hash)
    .join(",");
}

/** Waits until every node's cut names the same heads; returns that cut and how long it took. */
export async function converged(
  nodes: readonly NetNode[],
  timeoutMs: number,
  pollMs = 50,
): Promise<{ cut: CutAnswer; millis: number }> {
  const started = performance.now();
  let last: CutAnswer[] = [];
  for (;;) {
    last = await Promise.all(nodes.map(cutOf));
    if (last.every((cut) => headsOf(cut) === headsOf(last[0]!))) {
      return { cut: last[0]!, millis: performance.now() - started };
    }
    if (performance.now() - started > timeoutMs) {
      throw new Error(
        `the nodes did not agree within ${timeoutMs} ms: cut heights ${last.map((c) => c.height).join(", ")}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** Polls `check` until it gives a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  pollMs = 50,
): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() - started > timeoutMs)
      throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** sender00's and sender01's balances on chain 0 as `node` answers `local` for them. */
export async function senderBalances(node: NetNode): Promise<unknown> {
  const answer = await clientFor(node.url, "pact").local(
    readCommand(`[(coin.get-balance "sender00") (coin.get-balance "sender01")]`),
    { preflight: false, signatureVerification: false },
  );
  return answer.result;
}
