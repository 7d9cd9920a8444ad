/**
 * The test's side of a lying peer: starts `lying-peer-server.ts` inside a host of a test network
 * and reads what it reports, one JSON line on its stdout each ({@link LiarReport}): a liar
 * ({@link startLyingPeer}) or a peer that answers without end ({@link startEndlessPeer}).
 */
import { fileURLToPath } from "node:url";
import type { ImportErrorCode } from "../../../src/node/import/import-error.ts";
import type { SupervisedProcess } from "../../support/supervised-process.ts";
import type { Endless, Lie } from "./lying-peer.ts";
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

/** What a fake peer says once it listens: where, and the blocks it serves. */
export interface PeerReady {
  /** `ADDRESS:PORT`, as a node names its peers. */
  readonly key: string;
  /** Every block of its branch after genesis (a liar's lying one among them). */
  readonly blocks: readonly BlockRef[];
}

/** What the liar says once it listens: where, and what a node must say of its branch. */
export interface LiarReady extends PeerReady {
  /** The block that breaks the rule. */
  readonly lying: BlockRef;
  /** The refusal, as the import pipeline words it. */
  readonly code: ImportErrorCode;
  readonly reason: string;
}

/**
 * One line of the liar's stdout: ready, a request it received (`METHOD path`), its gossip's
 * status, the bytes of an endless answer the victim closed.
 */
export type LiarReport =
  | { readonly ready: LiarReady | PeerReady }
  | { readonly request: string }
  | { readonly gossip: number | string }
  | { readonly endless: number };

/** A running fake peer. */
interface FakePeer {
  readonly process: SupervisedProcess;
  /** The requests it received so far (`METHOD path`, without the query), in order. */
  requests(): string[];
  /** The status of its `PUT /cut` to the victim (an error's text if it failed); undefined until sent. */
  gossip(): number | string | undefined;
}

/** A running liar. */
export interface LyingPeer extends LiarReady, FakePeer {}

/** A running peer that answers without end. */
export interface EndlessPeer extends PeerReady, FakePeer {
  /** The bytes of its endless answers so far (each counted once the victim closed it). */
  sentBytes(): number;
}

function reports(output: string): LiarReport[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LiarReport);
}

/**
 * Starts the fake peer of `mode` in `host` (its address, {@link DEFAULT_NODE_PORT}), which gossips
 * its cut to `victimUrl` when the victim first asks it for its branch; resolves once it listens.
 */
async function startFakePeer(
  net: TestNetwork,
  host: string,
  mode: Lie | Endless,
  victimUrl: string,
): Promise<{ ready: LiarReady | PeerReady; fake: FakePeer; reported: () => LiarReport[] }> {
  const { address } = net.host(host);
  const liar = net.startScript(host, SCRIPT, [mode, address, String(DEFAULT_NODE_PORT), victimUrl]);
  const line = await liar.waitForOutput(/^\{"ready":/, LIAR_START_MS);
  const { ready } = JSON.parse(line) as { ready: LiarReady | PeerReady };
  const reported = () => reports(liar.output());
  return {
    ready,
    reported,
    fake: {
      process: liar,
      requests: () => reported().flatMap((r) => ("request" in r ? [r.request] : [])),
      gossip: () => reported().find((r) => "gossip" in r)?.gossip,
    },
  };
}

/** Starts the liar of `lie` in `host` (see {@link startFakePeer}). */
export async function startLyingPeer(
  net: TestNetwork,
  host: string,
  lie: Lie,
  victimUrl: string,
): Promise<LyingPeer> {
  const { ready, fake } = await startFakePeer(net, host, lie, victimUrl);
  return { ...(ready as LiarReady), ...fake };
}

/** Starts a peer that answers without end in `host` (see {@link startFakePeer}). */
export async function startEndlessPeer(
  net: TestNetwork,
  host: string,
  mode: Endless,
  victimUrl: string,
): Promise<EndlessPeer> {
  const { ready, fake, reported } = await startFakePeer(net, host, mode, victimUrl);
  return {
    ...ready,
    ...fake,
    sentBytes: () => reported().reduce((sum, r) => sum + ("endless" in r ? r.endless : 0), 0),
  };
}
