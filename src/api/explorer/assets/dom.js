// Building the page's elements. Text from the node (account names, codes, results) only ever
// becomes text nodes or attribute values, never markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function append(parent, children) {
  for (const child of children.flat(Number.POSITIVE_INFINITY)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

function setAttributes(element, attributes) {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
}

/** Replaces the children of `parent` (strings become text; null and false are left out). */
export function fill(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** An HTML element with attributes and children (strings become text). */
export function el(tag, attributes, ...children) {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  return append(element, children);
}

/** An SVG element with attributes and children. */
export function svg(tag, attributes, ...children) {
  const element = document.createElementNS(SVG_NS, tag);
  setAttributes(element, attributes);
  return append(element, children);
}

/** A link inside the explorer. */
export function link(route, text, attributes = {}) {
  return el("a", { ...attributes, href: `#/${route}` }, text);
}

/**
 * A table with a header row and one row per item, in a box that scrolls sideways when the table
 * is wider than the screen (the page itself never does).
 */
export function table(headings, rows, attributes = {}) {
  return tableBox(tableElement(headings, rows, attributes));
}

/** A table element in the box that scrolls sideways when it is wider than the screen. */
export function tableBox(tableEl) {
  return el("div", { class: "table-box" }, tableEl);
}

/** A table's header: one row of `headings`. */
export function tableHead(headings) {
  return el(
    "thead",
    null,
    el(
      "tr",
      null,
      headings.map((h) => el("th", null, h)),
    ),
  );
}

function tableElement(headings, rows, attributes) {
  return el(
    "table",
    attributes,
    tableHead(headings),
    el(
      "tbody",
      null,
      rows.map((cells) =>
        el(
          "tr",
          null,
          cells.map((c) => el("td", null, c)),
        ),
      ),
    ),
  );
}

/** A list of label/value pairs. */
export function fields(pairs, attributes = {}) {
  return el(
    "dl",
    { class: "fields", ...attributes },
    pairs.map(([label, value]) => [el("dt", null, label), el("dd", null, value)]),
  );
}

/** JSON text of a value, indented, in a preformatted block. */
export function jsonBlock(value) {
  return el("pre", { class: "json" }, JSON.stringify(value, null, 2));
}
