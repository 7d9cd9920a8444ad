// The transaction view's "Gas profile" section: the node executes the transaction again at its
// block's state (/braid/api/chain/{c}/tx/{key}/profile) and tells where each unit of its gas was
// charged. Shown as a flame chart (each frame a bar as wide as its share of the transaction's
// gas, its callees below it) and a table of the frames with their calls, self and total gas.

import { el, fill, tableBox, tableHead } from "./dom.js";

/** What each kind of frame is called in the table. */
const KIND_NAMES = {
  transaction: "transaction",
  charge: "charge",
  "top-level": "top level",
  function: "function",
  capability: "capability",
  defpact: "defpact",
  native: "native",
};

/** Milligas as gas with three decimals. */
function gas(milligas) {
  const sign = milligas < 0 ? "-" : "";
  const m = Math.abs(milligas);
  return `${sign}${Math.floor(m / 1000)}.${String(m % 1000).padStart(3, "0")}`;
}

/**
 * `element` with inline styles set through the CSSOM (the page's content security policy refuses
 * `style` attributes, not styles set from its own script).
 */
function styled(element, styles) {
  Object.assign(element.style, styles);
  return element;
}

function share(milligas, whole) {
  return whole === 0 ? 0 : (milligas * 100) / whole;
}

/** Every frame with its depth, in the order the tree is read (a frame before its callees). */
function flatten(frame, depth = 0, rows = []) {
  rows.push({ frame, depth });
  for (const child of frame.children) flatten(child, depth + 1, rows);
  return rows;
}

function frameTitle(frame, whole) {
  return `${frame.name} (${KIND_NAMES[frame.kind] ?? frame.kind}): ${gas(frame.totalMilligas)} gas, ${share(frame.totalMilligas, whole).toFixed(1)} % of the transaction, ${frame.calls} call${frame.calls === 1 ? "" : "s"}`;
}

/**
 * The flame chart: one row per depth; a frame's bar starts where its parent's does (after its
 * earlier siblings) and is as wide as its total gas. Charges that went past the limit (negative)
 * are left out of the drawing, not of the table.
 */
function flameChart(profile) {
  const whole = profile.totalMilligas;
  const rows = [];
  const place = (frame, depth, start) => {
    if (frame.totalMilligas <= 0) return;
    rows[depth] ??= [];
    const width = share(frame.totalMilligas, whole);
    rows[depth].push(
      styled(
        el(
          "div",
          {
            class: `flame-bar kind-${frame.kind}`,
            title: frameTitle(frame, whole),
            "data-frame": frame.name,
          },
          frame.name,
        ),
        { left: `${share(start, whole)}%`, width: `${width}%` },
      ),
    );
    let offset = start;
    for (const child of frame.children) {
      place(child, depth + 1, offset);
      offset += Math.max(0, child.totalMilligas);
    }
  };
  place(profile, 0, 0);
  return el(
    "div",
    { class: "flame", id: "gas-flame", role: "img", "aria-label": "flame chart of the gas" },
    rows.map((bars) => el("div", { class: "flame-row" }, bars)),
  );
}

function profileTable(answer) {
  const whole = answer.profile.totalMilligas;
  const rows = flatten(answer.profile).map(({ frame, depth }) => {
    const percent = share(frame.totalMilligas, whole);
    return el(
      "tr",
      { class: `kind-${frame.kind}` },
      styled(
        el(
          "td",
          { class: "frame" },
          el(
            "span",
            { class: `kind-tag kind-${frame.kind}` },
            KIND_NAMES[frame.kind] ?? frame.kind,
          ),
          " ",
          frame.name,
        ),
        { paddingLeft: `${0.4 + depth * 1.1}rem` },
      ),
      el("td", { class: "number" }, String(frame.calls)),
      el("td", { class: "number" }, gas(frame.selfMilligas)),
      el("td", { class: "number" }, gas(frame.totalMilligas)),
      el(
        "td",
        { class: "share" },
        styled(el("span", { class: "share-bar" }), { width: `${Math.max(0, percent)}%` }),
        el("span", { class: "share-text" }, `${percent.toFixed(1)} %`),
      ),
    );
  });
  return el(
    "table",
    { id: "gas-profile-table" },
    tableHead(["frame", "calls", "self gas", "total gas", "share"]),
    el("tbody", null, rows),
    el(
      "tfoot",
      null,
      el(
        "tr",
        null,
        el("th", null, "the transaction's gas"),
        el("td", null),
        el("td", null),
        el("td", { class: "number", id: "gas-profile-total" }, String(answer.gas)),
        el("td", null),
      ),
    ),
  );
}

function replayNote(answer) {
  return answer.matchesStored
    ? el(
        "p",
        { class: "muted", id: "gas-profile-check" },
        "Executed again at its block's state: the same output as the block stores.",
      )
    : el(
        "p",
        { class: "failed", id: "gas-profile-check" },
        `Executed again at its block's state, it did not give the stored output (${answer.differences.join(", ")} differ).`,
      );
}

/** The section, filled once the node has profiled the transaction (or said why it cannot). */
export function gasProfileSection(api, tx) {
  const body = el("div", { id: "gas-profile" }, el("p", { class: "muted" }, "profiling…"));
  const path = `/braid/api/chain/${tx.chain}/tx/${encodeURIComponent(tx.requestKey)}/profile`;
  api(path).then(
    (answer) =>
      fill(body, replayNote(answer), flameChart(answer.profile), tableBox(profileTable(answer))),
    (error) => fill(body, el("p", { class: "failed" }, `No gas profile: ${error.message}`)),
  );
  return [el("h2", null, "Gas profile"), body];
}
