// The module view: a module's or interface's outline (governance, interfaces, functions with
// their signatures, capabilities, tables with their schemas), its code and hash, and on which
// chains it is deployed, by which transaction.

import { el, fields, fill, link, table } from "./dom.js";
import { shortHash } from "./format.js";

/** A route to a module's view. */
export function moduleRoute(name) {
  return `module/${encodeURIComponent(name)}`;
}

/** `(name:type …)` with `:returns` after the name, Pact's way of writing a signature. */
function signature(name, params, returns) {
  const args = params.map((p) => (p.type === null ? p.name : `${p.name}:${p.type}`)).join(" ");
  return `(${name}${returns === null ? "" : `:${returns}`} (${args}))`;
}

function fieldList(list) {
  return list.map((f) => (f.type === null ? f.name : `${f.name}:${f.type}`)).join(" ");
}

function governanceText(governance) {
  if (governance === null) return "none (an interface)";
  return governance.kind === "keyset"
    ? `keyset ${governance.name}`
    : `capability ${governance.name}`;
}

function outlineSections(outline) {
  const none = el("p", { class: "muted" }, "none");
  return [
    el("h2", null, `Functions (${outline.functions.length})`),
    outline.functions.length === 0
      ? none
      : table(
          ["signature", "kind", "doc"],
          outline.functions.map((f) => [
            el("code", null, signature(f.name, f.params, f.returns)),
            f.kind,
            f.doc ?? "",
          ]),
          { id: "module-functions" },
        ),
    el("h2", null, `Capabilities (${outline.capabilities.length})`),
    outline.capabilities.length === 0
      ? none.cloneNode(true)
      : table(
          ["signature", "managed", "event", "doc"],
          outline.capabilities.map((c) => [
            el("code", null, signature(c.name, c.params, null)),
            c.managed === null ? "no" : c.managed === "auto" ? "yes" : `yes (${c.managed})`,
            c.event ? "yes" : "",
            c.doc ?? "",
          ]),
          { id: "module-capabilities" },
        ),
    el("h2", null, `Tables (${outline.tables.length})`),
    outline.tables.length === 0
      ? none.cloneNode(true)
      : table(
          ["table", "schema", "fields"],
          outline.tables.map((t) => [
            t.name,
            t.schema,
            t.fields === null ? "" : el("code", null, fieldList(t.fields)),
          ]),
          { id: "module-tables" },
        ),
  ];
}

export async function showModule(view, api, name) {
  const module = await api(`/braid/api/module/${encodeURIComponent(name)}`);
  const outline = "problem" in module.outline ? null : module.outline;
  const interfaces =
    module.interfaces.length === 0 ? (outline?.implements ?? []) : module.interfaces;
  const chains = module.chains.map((c) => [
    String(c.chain),
    el("span", { class: "hash" }, shortHash(c.hash)),
    c.deployedBy === null
      ? el("span", { class: "muted" }, "not in a stored block")
      : link(`tx/${c.deployedBy.requestKey}`, shortHash(c.deployedBy.requestKey), {
          class: "hash",
        }),
    c.deployedBy === null
      ? ""
      : link(`block/${c.deployedBy.blockHash}`, `${c.chain}/${c.deployedBy.height}`),
  ]);
  fill(
    view,
    el(
      "h1",
      null,
      outline?.kind === "interface" ? "Interface " : "Module ",
      el("span", { id: "module-name" }, module.module),
    ),
    fields([
      ["hash", el("span", { class: "hash", id: "module-hash" }, module.hash)],
      [
        "governance",
        el("span", { id: "module-governance" }, governanceText(outline?.governance ?? null)),
      ],
      [
        "implements",
        interfaces.length === 0
          ? "none"
          : el(
              "ul",
              { class: "plain", id: "module-interfaces" },
              interfaces.map((i) => el("li", null, link(moduleRoute(i), i))),
            ),
      ],
      ["chains", module.chains.map((c) => c.chain).join(", ")],
    ]),
    outline === null
      ? el("p", { class: "failed" }, module.outline.problem)
      : outlineSections(outline),
    el("h2", null, "Deployed on"),
    table(["chain", "hash there", "deployed by", "block"], chains, { id: "module-chains" }),
    el("h2", null, "Code"),
    el("pre", { class: "code", id: "module-code" }, module.code),
  );
}
