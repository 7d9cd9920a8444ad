// The block, transaction and account views.

import { el, fields, fill, jsonBlock, link, table } from "./dom.js";
import {
  blockTime,
  calledModules,
  decimalText,
  eventText,
  outcomeText,
  pactText,
  shortHash,
} from "./format.js";
import { gasProfileSection } from "./gas-profile.js";
import { moduleRoute } from "./module-view.js";

function events(result) {
  const list = result?.events ?? [];
  if (list.length === 0) return el("p", { class: "muted" }, "no events");
  return el(
    "ol",
    { class: "events" },
    list.map((e) => el("li", null, eventWithModuleLink(e))),
  );
}

/** An event's text with its module's name linked to the module's view. */
function eventWithModuleLink(event) {
  const text = eventText(event);
  const module = event.module?.namespace
    ? `${event.module.namespace}.${event.module.name}`
    : event.module?.name;
  if (module === undefined || !text.startsWith(`${module}.`)) return text;
  return [link(moduleRoute(module), module), text.slice(module.length)];
}

/** Links to the block before (its parent) and after (its children) on the same chain. */
function blockNavigation(block) {
  const h = block.header;
  return el(
    "nav",
    { class: "block-nav" },
    h.height === 0
      ? el("span", { class: "muted" }, "genesis")
      : link(`block/${h.parent}`, `← ${block.chain}/${block.height - 1}`, { id: "previous-block" }),
    block.children.length === 0
      ? el("span", { class: "muted" }, "no next block yet")
      : block.children.map((c, i) =>
          link(
            `block/${c}`,
            `${block.chain}/${block.height + 1}${block.children.length > 1 ? ` (${i + 1})` : ""} →`,
            {
              class: "next-block",
            },
          ),
        ),
  );
}

function outcome(result) {
  const text = outcomeText(result);
  return el("span", { class: text === "success" ? "ok" : "failed" }, text);
}

/** What a command does, in one line: its code's start, or the defpact step it continues. */
function commandSummary(cmd) {
  const payload = cmd?.payload;
  if (payload?.exec) return payload.exec.code.slice(0, 80);
  if (payload?.cont) return `continue ${shortHash(payload.cont.pactId)} step ${payload.cont.step}`;
  return "";
}

export async function showBlock(view, api, hash) {
  const block = await api(`/braid/api/block/${encodeURIComponent(hash)}`);
  const h = block.header;
  const adjacents = Object.entries(h.adjacents).map(([chain, adjacent]) =>
    el("li", null, `chain ${chain}: `, link(`block/${adjacent}`, adjacent, { class: "hash" })),
  );
  const miner = block.minerData;
  const rows = block.transactions.map((tx) => [
    link(`tx/${tx.command.hash}`, shortHash(String(tx.command.hash)), { class: "hash" }),
    String(tx.command.cmd?.meta?.sender ?? ""),
    commandSummary(tx.command.cmd),
    outcome(tx.result),
    String(tx.result.gas),
    (tx.result.events ?? []).map((e) => e.name).join(", "),
  ]);
  fill(
    view,
    el("h1", null, `Block ${block.height} of chain ${block.chain}`),
    blockNavigation(block),
    block.onBranch
      ? null
      : el("p", { class: "failed" }, "This block is not on its chain's current branch."),
    fields([
      ["hash", el("span", { class: "hash", id: "block-hash" }, block.hash)],
      ["chain", String(block.chain)],
      ["height", String(block.height)],
      [
        "parent",
        h.height === 0 ? "none (genesis)" : link(`block/${h.parent}`, h.parent, { class: "hash" }),
      ],
      ["adjacent parents", el("ul", { class: "plain" }, adjacents)],
      [
        "children",
        block.children.length === 0
          ? "none yet"
          : el(
              "ul",
              { class: "plain" },
              block.children.map((c) => el("li", null, link(`block/${c}`, c, { class: "hash" }))),
            ),
      ],
      ["created", blockTime(h.creationTime)],
      ["weight", el("span", { id: "block-weight", title: h.weight }, block.weight)],
      ["target", el("span", { id: "block-target", title: h.target }, block.target)],
      ["nonce", h.nonce],
      ["payload hash", h.payloadHash],
      [
        "miner",
        miner?.account === undefined
          ? "none"
          : link(`account/${encodeURIComponent(miner.account)}`, miner.account),
      ],
      [
        "miner keys",
        miner?.["public-keys"] === undefined
          ? ""
          : `${miner.predicate}: ${miner["public-keys"].join(", ")}`,
      ],
      [
        "coinbase",
        block.coinbase?.result
          ? `${outcomeText(block.coinbase)}${block.coinbase.result.data ? ` (${pactText(block.coinbase.result.data)})` : ""}`
          : "none",
      ],
    ]),
    el("h2", null, `Transactions (${block.transactions.length})`),
    block.transactions.length === 0
      ? el("p", { class: "muted" }, "no transactions")
      : table(["request key", "sender", "command", "result", "gas", "events"], rows, {
          id: "transactions",
        }),
    block.coinbase?.events ? [el("h2", null, "Coinbase events"), events(block.coinbase)] : null,
  );
}

function signers(cmd) {
  const list = cmd?.signers ?? [];
  if (list.length === 0) return "none";
  return el(
    "ul",
    { class: "plain" },
    list.map((s) =>
      el(
        "li",
        null,
        el("span", { class: "hash" }, s.pubKey),
        (s.clist ?? []).length === 0
          ? " (unscoped)"
          : el(
              "ul",
              null,
              s.clist.map((c) => el("li", null, `${c.name}(${c.args.map(pactText).join(", ")})`)),
            ),
      ),
    ),
  );
}

/** The links between the steps of a cross-chain transfer (or any defpact across chains). */
function defpactLinks(tx) {
  const links = [];
  if (tx.pactOrigin !== null) {
    links.push(
      el(
        "li",
        null,
        `started on chain ${tx.pactOrigin.chain} by `,
        link(`tx/${tx.pactOrigin.requestKey}`, tx.pactOrigin.requestKey, {
          class: "hash",
          "data-step": "origin",
        }),
      ),
    );
  }
  for (const c of tx.continuations) {
    links.push(
      el(
        "li",
        null,
        `step ${c.step} on chain ${c.chain}: `,
        link(`tx/${c.requestKey}`, c.requestKey, { class: "hash", "data-step": "continuation" }),
      ),
    );
  }
  const pending = tx.result.continuation;
  const target = pending?.yield?.provenance?.targetChainId;
  if (
    tx.continuations.length === 0 &&
    pending &&
    target !== undefined &&
    pending.step + 1 < pending.stepCount
  ) {
    links.push(el("li", null, `waiting for step ${pending.step + 1} on chain ${target}`));
  }
  return links.length === 0
    ? null
    : [el("h2", null, "Defpact steps"), el("ul", { id: "defpact", class: "plain" }, links)];
}

export async function showTransaction(view, api, key) {
  const tx = await api(`/braid/api/tx/${encodeURIComponent(key)}`);
  const cmd = tx.command.cmd ?? {};
  const meta = cmd.meta ?? {};
  const payload = cmd.payload ?? {};
  const result = tx.result;
  fill(
    view,
    el("h1", null, `Transaction on chain ${tx.chain}`),
    fields([
      ["request key", el("span", { class: "hash", id: "request-key" }, tx.requestKey)],
      ["result", outcome(result)],
      [
        "block",
        link(`block/${tx.blockHash}`, `${tx.chain}/${tx.height} ${tx.blockHash}`, {
          id: "tx-block",
        }),
      ],
      ["block time", blockTime(tx.blockTime)],
      [
        "sender",
        meta.sender ? link(`account/${encodeURIComponent(meta.sender)}`, meta.sender) : "",
      ],
      ["gas", `${result.gas} used of ${meta.gasLimit ?? "?"} at ${pactText(meta.gasPrice)}`],
      [
        "created",
        meta.creationTime === undefined ? "" : new Date(meta.creationTime * 1000).toISOString(),
      ],
      ["signers", signers(cmd)],
      ...commandDetails(cmd, result),
    ]),
    tx.onBranch
      ? null
      : el("p", { class: "failed" }, "Its block is not on the chain's current branch."),
    el("h2", null, payload.cont ? "Continuation" : "Code"),
    payload.exec ? el("pre", { class: "code" }, payload.exec.code) : jsonBlock(payload.cont),
    payload.exec && Object.keys(payload.exec.data ?? {}).length > 0
      ? [el("h2", null, "Data"), jsonBlock(payload.exec.data)]
      : null,
    el("h2", null, "Result"),
    result.result?.status === "success"
      ? jsonBlock(result.result.data)
      : el("p", { class: "failed", id: "failure" }, result.result?.error?.message ?? "failed"),
    el("h2", null, "Events"),
    events(result),
    defpactLinks(tx),
    tx.onBranch && tx.height > 0 ? gasProfileSection(api, tx) : null,
    rawJson(tx),
  );
}

/** The command's tx id, time to live, nonce and the modules its code calls, as label/value pairs. */
function commandDetails(cmd, result) {
  const ttl = cmd.meta?.ttl;
  return [
    [
      "tx id",
      el(
        "span",
        { id: "tx-id" },
        result.txId === undefined || result.txId === null ? "none" : String(result.txId),
      ),
    ],
    ["time to live", el("span", { id: "tx-ttl" }, ttl === undefined ? "" : `${ttl} s`)],
    ["nonce", el("span", { id: "tx-nonce" }, String(cmd.nonce ?? ""))],
    ["modules called", moduleLinks(calledModules(cmd.payload?.exec?.code ?? ""))],
  ];
}

function moduleLinks(names) {
  if (names.length === 0) return "none";
  return el(
    "span",
    { id: "tx-modules" },
    names.map((name, i) => [i === 0 ? "" : ", ", link(moduleRoute(name), name)]),
  );
}

/** The command and its result as the node stores them, folded away until opened. */
function rawJson(tx) {
  return el(
    "details",
    { id: "raw-json" },
    el("summary", null, "Raw JSON (command and result)"),
    jsonBlock({ command: tx.command, result: tx.result }),
  );
}

export async function showAccount(view, api, name) {
  const account = await api(`/braid/api/account/${encodeURIComponent(name)}`);
  const sameGuard = account.guard !== null;
  const balances = account.chains.map(({ chain, result }) => {
    const ok = result.result?.status === "success";
    const details = ok ? result.result.data : null;
    return [
      String(chain),
      ok ? decimalText(details.balance) : el("span", { class: "muted" }, "no account"),
      ...(sameGuard ? [] : [ok ? el("code", null, JSON.stringify(details.guard)) : ""]),
    ];
  });
  const accountCell = (party) =>
    party === ""
      ? "(none)"
      : party === account.account
        ? party
        : link(`account/${encodeURIComponent(party)}`, party);
  const transfers = account.transfers.map((t) => [
    String(t.chain),
    link(`block/${t.blockHash}`, String(t.height)),
    accountCell(t.sender),
    accountCell(t.receiver),
    decimalText(t.amount),
    link(`tx/${t.requestKey}`, shortHash(t.requestKey), { class: "hash" }),
  ]);
  const chainsHolding = account.chains.filter((c) => c.result.result?.status === "success").length;
  fill(
    view,
    el("h1", null, "Account ", el("span", { id: "account-name" }, account.account)),
    fields([
      [
        "total",
        account.total === null
          ? el("span", { class: "muted", id: "account-total" }, "no account on any chain")
          : el("span", { id: "account-total" }, decimalText(account.total)),
      ],
      ["chains", `${chainsHolding} of ${account.chains.length}`],
      [
        "guard",
        sameGuard
          ? el("code", { id: "account-guard" }, JSON.stringify(account.guard))
          : chainsHolding === 0
            ? ""
            : "differs by chain (below)",
      ],
    ]),
    el("h2", null, "Balances (local coin.details on every chain)"),
    table(sameGuard ? ["chain", "balance"] : ["chain", "balance", "guard"], balances, {
      id: "balances",
    }),
    el("h2", null, "Recent transfers seen by this node"),
    transfers.length === 0
      ? el("p", { class: "muted" }, "none")
      : table(["chain", "height", "from", "to", "amount", "request key"], transfers, {
          id: "transfers",
        }),
  );
}
