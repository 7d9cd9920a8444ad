// The mempool view: each chain's pending commands (those peers may see), as the node holds them
// now: request key, sender, what the command does, gas limit and price, creation time.

import { el, fill, link, table } from "./dom.js";
import { pactText, shortHash } from "./format.js";

/** What a pending command does, in one line: its code's start, or the defpact step it continues. */
function summary(cmd) {
  const payload = cmd?.payload;
  if (payload?.exec) return payload.exec.code.slice(0, 80);
  if (payload?.cont) return `continue ${shortHash(payload.cont.pactId)} step ${payload.cont.step}`;
  return "";
}

export async function showMempool(view, api) {
  const chains = await api("/braid/api/mempool");
  const waiting = chains.filter((c) => c.pending > 0);
  const total = chains.reduce((sum, c) => sum + c.pending, 0);
  const rows = waiting.flatMap((c) =>
    c.commands.map((command) => {
      const meta = command.cmd?.meta ?? {};
      return [
        String(c.chain),
        el("span", { class: "hash" }, String(command.hash)),
        meta.sender ? link(`account/${encodeURIComponent(meta.sender)}`, meta.sender) : "",
        summary(command.cmd),
        `${meta.gasLimit ?? "?"} at ${pactText(meta.gasPrice)}`,
        meta.creationTime === undefined ? "" : new Date(meta.creationTime * 1000).toISOString(),
      ];
    }),
  );
  fill(
    view,
    el("h1", null, "Mempool"),
    el(
      "p",
      { id: "mempool-summary" },
      total === 0
        ? "No commands are pending on any chain."
        : `${total} pending: ${waiting.map((c) => `chain ${c.chain}: ${c.pending}`).join(", ")}.`,
    ),
    rows.length === 0
      ? null
      : table(
          ["chain", "request key", "sender", "command", "gas limit at price", "created"],
          rows,
          {
            id: "mempool",
          },
        ),
    el(
      "p",
      { class: "muted" },
      "A command leaves the mempool when a block includes it; open its request key then.",
    ),
  );
}
