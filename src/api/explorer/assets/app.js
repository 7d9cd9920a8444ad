// The explorer's entry point: routes (`#/`, `#/block/<hash>`, `#/chain/<c>`, `#/tx/<key>`,
// `#/account/<name>`, `#/module/<name>`, `#/mempool`), the search box, and errors shown as text.

import { exactNumbers } from "./format.js";
import { showMempool } from "./mempool-view.js";
import { moduleRoute, showModule } from "./module-view.js";
import { showNetwork } from "./network.js";
import { showAccount, showBlock, showTransaction } from "./views.js";

const view = document.getElementById("view");
const status = document.getElementById("status");

/** An answer's reason when the node refused the request (its text body). */
class NodeRefusal extends Error {}

/** GETs JSON from the node; a refusal (4xx) becomes a {@link NodeRefusal} with its text. */
async function api(path) {
  const response = await fetch(path, { headers: { accept: "application/json" } });
  const text = await response.text();
  if (!response.ok) throw new NodeRefusal(text || `HTTP ${response.status}`);
  return JSON.parse(text, exactNumbers);
}

const infoPromise = api("/info");
let stopLive = () => {};

async function base() {
  const info = await infoPromise;
  return `/chainweb/0.0/${encodeURIComponent(info.nodeVersion)}`;
}

async function show(route) {
  const [kind, ...rest] = route.split("/");
  const arg = decodeURIComponent(rest.join("/"));
  switch (kind) {
    case "block":
      return showBlock(view, api, arg);
    case "tx":
      return showTransaction(view, api, arg);
    case "account":
      return showAccount(view, api, arg);
    case "module":
      return showModule(view, api, arg);
    case "mempool":
      return showMempool(view, api);
    case "chain": {
      const cut = await api(`${await base()}/cut`);
      const head = cut.hashes[arg];
      if (head === undefined) throw new NodeRefusal(`no chain ${arg}`);
      return showBlock(view, api, head.hash);
    }
    default:
      stopLive = await showNetwork(view, api, await base(), await infoPromise);
  }
}

async function render() {
  stopLive();
  stopLive = () => {};
  const route = location.hash.replace(/^#\/?/, "");
  status.textContent = "";
  document.body.dataset.loading = "true";
  try {
    await show(route);
  } catch (error) {
    view.replaceChildren();
    status.textContent = error instanceof NodeRefusal ? error.message : `error: ${error}`;
  } finally {
    delete document.body.dataset.loading;
  }
}

document.getElementById("search").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = document.getElementById("search-text").value.trim();
  if (text === "") return;
  try {
    const found = await api(`/braid/api/search?q=${encodeURIComponent(text)}`);
    const route =
      found.kind === "block"
        ? `block/${found.hash}`
        : found.kind === "transaction"
          ? `tx/${found.requestKey}`
          : found.kind === "module"
            ? moduleRoute(found.module)
            : `account/${encodeURIComponent(found.account)}`;
    if (location.hash === `#/${route}`) await render();
    else location.hash = `#/${route}`;
  } catch (error) {
    status.textContent = error instanceof NodeRefusal ? error.message : `error: ${error}`;
  }
});

window.addEventListener("hashchange", render);
render();
