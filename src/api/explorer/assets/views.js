// The block, transaction and account views.

import { el, fields, fill, jsonBlock, link, table } from "./dom.js";
import { blockTime, eventText, outcomeText, pactText, shortHash } from "./format.js";
import { gasProfileSection } from "./gas-profile.js";

function events(result) {
  const list = result?.events ?? [];
  if (list.length === 0) return el("p", { class: "muted" }, "no events");
  return el(
    "ol",
    { class: "events" },
    list.map((e) => el("li", null, eventText(e))),
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
      ["weight", h.weight],
      ["target", h.target],
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
  );
}

export async function showAccount(view, api, name) {
  const account = await api(`/braid/api/account/${encodeURIComponent(name)}`);
  const balances = account.chains.map(({ chain, result }) => {
    const ok = result.result?.status === "success";
    const details = ok ? result.result.data : null;
    return [
      String(chain),
      ok ? pactText(details.balance) : el("span", { class: "muted" }, "no account"),
      ok ? el("code", null, JSON.stringify(details.guard)) : "",
    ];
  });
  const transfers = account.transfers.map((t) => [
    String(t.chain),
    link(`block/${t.blockHash}`, String(t.height)),
    t.sender === ""
      ? "(none)"
      : t.sender === account.account
        ? t.sender
        : link(`account/${encodeURIComponent(t.sender)}`, t.sender),
    t.receiver === ""
      ? "(none)"
      : t.receiver === account.account
        ? t.receiver
        : link(`account/${encodeURIComponent(t.receiver)}`, t.receiver),
    pactText(t.amount),
    link(`tx/${t.requestKey}`, shortHash(t.requestKey), { class: "hash" }),
  ]);
  fill(
    view,
    el("h1", null, "Account ", el("span", { id: "account-name" }, account.account)),
    el("h2", null, "Balances (local coin.details on every chain)"),
    table(["chain", "balance", "guard"], balances, { id: "balances" }),
    el("h2", null, "Recent transfers seen by this node"),
    transfers.length === 0
      ? el("p", { class: "muted" }, "none")
      : table(["chain", "height", "from", "to", "amount", "request key"], transfers, {
          id: "transfers",
        }),
  );
}
