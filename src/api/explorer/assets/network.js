// The network view: the chain graph as an SVG (one node per chain with its height, an edge per
// pair of adjacent chains) and the latest blocks of all chains, both kept current from the
// node's header stream; and this node's peers with where their cuts stand against this node's,
// asked for again every few seconds.

import { el, fill, link, svg, table } from "./dom.js";
import { blockTime, shortHash } from "./format.js";

/** Rows kept in the latest-blocks list. */
const MAX_LATEST_ROWS = 40;
const SIZE = 520;
const RADIUS = 210;
const NODE_RADIUS = 24;
/** How often the peers are asked for again (the node asks each peer for its cut every second). */
const PEERS_REFRESH_MS = 2000;

/**
 * The twenty-chain graph on two concentric rings of ten, outer and inner (offset by half a step),
 * each listed clockwise from the top. The orders came from a search over ring placements for the
 * fewest crossings: 13 crossings and no edge through the centre, against 80 crossings when the
 * chains stand in order on one circle (edges i–i+5 and i–i+10 are diameters there).
 */
const TWENTY_CHAIN_RINGS = [
  [17, 13, 3, 8, 6, 9, 7, 11, 12, 2],
  [14, 18, 19, 4, 5, 10, 0, 1, 16, 15],
];
/** The inner ring's radius against the outer's. */
const INNER_RING = 0.6;

const ringPoint = (radius, step) => {
  const angle = 2 * Math.PI * step - Math.PI / 2;
  return { x: SIZE / 2 + radius * Math.cos(angle), y: SIZE / 2 + radius * Math.sin(angle) };
};

/**
 * Where each chain is drawn: the two rings for the twenty-chain graph; any other graph (the
 * Petersen graph of mainnet's first years) on a circle, chain 0 at the top, clockwise.
 */
function layout(chains) {
  const ringed = TWENTY_CHAIN_RINGS.flat();
  if (chains.length === ringed.length && ringed.every((c) => chains.includes(c))) {
    const [outer, inner] = TWENTY_CHAIN_RINGS;
    return new Map([
      ...outer.map((chain, i) => [chain, ringPoint(RADIUS, i / outer.length)]),
      ...inner.map((chain, i) => [chain, ringPoint(RADIUS * INNER_RING, (i + 0.5) / inner.length)]),
    ]);
  }
  return new Map(chains.map((chain, i) => [chain, ringPoint(RADIUS, i / chains.length)]));
}

function graphSvg(graph, heights) {
  const chains = graph.map(([chain]) => chain).sort((a, b) => a - b);
  const at = layout(chains);
  const edges = [];
  for (const [chain, adjacents] of graph) {
    for (const other of adjacents) {
      if (chain < other) {
        const a = at.get(chain);
        const b = at.get(other);
        edges.push(svg("line", { class: "edge", x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
      }
    }
  }
  const nodes = chains.map((chain) => {
    const { x, y } = at.get(chain);
    return svg(
      "a",
      { href: `#/chain/${chain}`, class: "chain", "data-chain": chain },
      svg("title", null, `chain ${chain}`),
      svg("circle", { cx: x, cy: y, r: NODE_RADIUS }),
      svg("text", { x, y: y - 4, class: "chain-id" }, String(chain)),
      svg("text", { x, y: y + 12, class: "height" }, String(heights.get(chain) ?? "")),
    );
  });
  return svg(
    "svg",
    {
      id: "braid",
      viewBox: `0 0 ${SIZE} ${SIZE}`,
      role: "img",
      "aria-label": "the chain graph with each chain's height",
    },
    edges,
    nodes,
  );
}

function blockRow(block) {
  return [
    String(block.chain),
    link(`block/${block.hash}`, String(block.height)),
    link(`block/${block.hash}`, shortHash(block.hash), { class: "hash" }),
    String(block.txCount),
    blockTime(block.creationTime),
  ];
}

function peerRow(peer) {
  return [
    el("span", { class: "hash" }, peer.address),
    peer.configured ? "configured" : "learnt",
    peer.cutHeight === null ? "" : String(peer.cutHeight),
    // ahead, behind or same: by the weight of its last cut against this node's.
    peer.relation === null
      ? el("span", { class: "muted" }, "not known yet")
      : el("span", { class: `relation-${peer.relation}` }, peer.relation),
    peer.problem === null ? "" : el("span", { class: "failed" }, peer.problem),
  ];
}

/** The peers section's content from `/braid/api/peers`; with no peers, how to add one. */
function peersContent(answer) {
  const self = answer.address === null ? "This node" : `This node (${answer.address})`;
  const join =
    answer.address === null
      ? "give this node one with --peer host:port"
      : `give this node one with --peer host:port, or start another node with --peer ${answer.address}`;
  return [
    el("h2", null, "Peers"),
    el(
      "p",
      { id: "own-cut" },
      `${self}: cut height ${answer.cutHeight}, weight ${answer.cutWeight}.`,
    ),
    answer.peers.length === 0
      ? el("p", { class: "muted", id: "no-peers" }, `No peers: ${join} (docs/network.md).`)
      : table(
          ["peer", "known by", "cut height", "its cut against this node's", "problem"],
          answer.peers.map(peerRow),
          { id: "peer-table" },
        ),
  ];
}

/**
 * Renders the network view into `view`; returns a function that stops its live updates.
 * `api` is the explorer's fetch helper, `base` the Chainweb path `/chainweb/0.0/<network>`.
 */
export async function showNetwork(view, api, base, info) {
  const [cut, recent, peers] = await Promise.all([
    api(`${base}/cut`),
    api("/braid/api/blocks/recent"),
    api("/braid/api/peers"),
  ]);
  const heights = new Map(
    Object.entries(cut.hashes).map(([chain, { height }]) => [Number(chain), height]),
  );
  const graph = info.nodeGraphHistory[0][1];
  const latest = table(["chain", "height", "hash", "txs", "created"], recent.map(blockRow), {
    id: "latest-blocks",
  });
  const rows = latest.querySelector("tbody");
  const filter = el("input", { type: "checkbox", id: "with-transactions" });
  const filterNote = el("p", { class: "muted", id: "filter-note" });
  const latestBlocks = (list) =>
    list.map((block) =>
      el(
        "tr",
        null,
        blockRow(block).map((cell) => el("td", null, cell)),
      ),
    );
  filter.addEventListener("change", async () => {
    const checked = filter.checked;
    const answer = checked
      ? await api("/braid/api/blocks/with-transactions")
      : { blocks: await api("/braid/api/blocks/recent") };
    if (filter.checked !== checked) return;
    fill(rows, latestBlocks(answer.blocks));
    filterNote.textContent = checked
      ? `Blocks holding commands among the last ${answer.scannedPerChain} of each chain${answer.blocks.length === 0 ? ": none" : ""}.`
      : "";
  });
  const peersSection = el("section", { id: "peers" }, peersContent(peers));
  fill(
    view,
    el("h1", null, `Network ${info.nodeVersion}: ${graph.length} chains`),
    el(
      "div",
      { class: "network" },
      el("section", null, el("h2", null, "The braid"), graphSvg(graph, heights)),
      el(
        "section",
        null,
        el("h2", null, "Latest blocks"),
        el("label", { class: "filter" }, filter, " only blocks with transactions"),
        filterNote,
        latest,
      ),
    ),
    peersSection,
  );

  let stopped = false;
  let peersTimer;
  const refreshPeers = async () => {
    try {
      const answer = await api("/braid/api/peers");
      if (!stopped) fill(peersSection, peersContent(answer));
    } catch {
      // The table stays as it was; the next refresh asks again.
    }
    if (!stopped) peersTimer = setTimeout(refreshPeers, PEERS_REFRESH_MS);
  };
  peersTimer = setTimeout(refreshPeers, PEERS_REFRESH_MS);

  const stream = new EventSource(`${base}/header/updates`);
  stream.addEventListener("BlockHeader", (event) => {
    const { header, txCount } = JSON.parse(event.data);
    const node = view.querySelector(`[data-chain="${Number(header.chainId)}"]`);
    if (node !== null) {
      node.querySelector(".height").textContent = String(header.height);
      node.classList.remove("fresh");
      // Restart the highlight animation on every new block.
      void node.getBoundingClientRect();
      node.classList.add("fresh");
    }
    if (filter.checked && txCount === 0) return;
    const [row] = latestBlocks([
      {
        chain: header.chainId,
        height: header.height,
        hash: header.hash,
        txCount,
        creationTime: header.creationTime,
      },
    ]);
    rows.prepend(row);
    while (rows.children.length > MAX_LATEST_ROWS) rows.lastElementChild.remove();
  });
  return () => {
    stopped = true;
    clearTimeout(peersTimer);
    stream.close();
  };
}
