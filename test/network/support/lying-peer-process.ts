/**
 * The test's side of a lying peer: starts `lying-peer-server.ts` inside a host of a test network
 * and reads what it reports, one JSON line on its stdout each ({@link LiarReport}).
 */
import { fileURLToPath } from "node:url";
import type { ImportErrorCode } from "../../../src/node/import/import-error.ts";
import type { SupervisedProcess } from "../../support/supervised-process.ts";
import type { Lie } from "./lying-peer.ts";
import { DEFAULT_NODE_PORT } from "./net-node.ts";
import type { TestNetwork } from "./netns.ts";

const SCRIPT = fileURLToPath(new URL("./lying-peer-server.ts", import.meta.url));
/** How long the liar may take to build its branch and listen (it starts a Braid node in-process). */
const LIAR_START_MS = 30_000;

/** A block, as the test names it. */
export interface BlockRef {
  readonly hash: string;
  readonly chainId: number;
  readonly height: number;
}

/** What the liar says once it listens: where, and what a node must say of its branch. */
export interface LiarReady {
  /** `ADDRESS:PORT`, as a node names its peers. */
  readonly key: string;
  /** Every block of its branch after genesis; the lying one is among them. */
  readonly blocks: readonly BlockRef[];
  /** The block that breaks the rule. */
  readonly lying: BlockRef;
  /** The refusal, as the import pipeline words it. */
  readonly code: ImportErrorCode;
  readonly reason: string;
}

/** One line of the liar's stdout: ready, a request it received (`METHOD path`), its gossip's status. */
export type LiarReport =
  | { readonly ready: LiarReady }
  | { readonly request: string }
  | { readonly gossip: number | string };

/** A running liar. */
export interface LyingPeer extends LiarReady {
  readonly process: SupervisedProcess;
  /** The requests it received so far (`METHOD path`, without the query), in order. */
  requests(): string[];
  /** The status of its `PUT /cut` to the victim (an error's text if it failed); undefined until sent. */
  gossip(): number | string | undefined;
}

function reports(output: string): LiarReport[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LiarReport);
}

/**
 * Starts the liar of `lie` in `host` (its address, {@link DEFAULT_NODE_PORT}), which gossips its
 * cut to `victimUrl` when the victim first asks it for its branch; resolves once it listens.
 */
export async function startLyingPeer(
  net: TestNetwork,
  host: string,
  lie: Lie,
  victimUrl: string,
): Promise<LyingPeer> {
  const { address } = net.host(host);
  const liar = net.startScript(host, SCRIPT, [lie, address, String(DEFAULT_NODE_PORT), victimUrl]);
  const line = await liar.waitForOutput(/^\{"ready":/, LIAR_START_MS);
  const { ready } = JSON.parse(line) as { ready: LiarReady };
  return {
    ...ready,
    process: liar,
    requests: () => reports(liar.output()).flatMap((r) => ("request" in r ? [r.request] : [])),
    gossip: () => reports(liar.output()).find((r) => "gossip" in r)?.gossip,
  };
}
