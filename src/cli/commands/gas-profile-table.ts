/**
 * A transaction's gas profile (the node's `/braid/api/chain/{c}/tx/{key}/profile`) as the table
 * `braid dev profile` prints: one row per frame, indented by depth, with its calls, self and
 * total gas (milligas shown as gas with three decimals) and its share of the transaction; then
 * the total line, the transaction's gas.
 */

/** A frame as the node sends it (src/pact/gas/profile.ts, `GasProfileFrame`). */
export interface ProfileFrameJson {
  readonly kind: string;
  readonly name: string;
  readonly calls: number;
  readonly selfMilligas: number;
  readonly totalMilligas: number;
  readonly children: readonly ProfileFrameJson[];
}

/** The node's answer, the fields the table shows. */
export interface ProfileAnswerJson {
  readonly requestKey: string;
  readonly chain: number;
  readonly height: number;
  readonly gas: number;
  readonly matchesStored: boolean;
  readonly differences: readonly string[];
  readonly profile: ProfileFrameJson;
}

/** What each kind of frame is marked with before its name. */
const KIND_MARKS: Readonly<Record<string, string>> = {
  transaction: "tx ",
  charge: "",
  "top-level": "",
  function: "fn ",
  capability: "cap ",
  defpact: "pact ",
  native: "",
};

/** Milligas as gas with three decimals. */
export function gasText(milligas: number): string {
  const sign = milligas < 0 ? "-" : "";
  const m = Math.abs(milligas);
  return `${sign}${Math.floor(m / 1000)}.${String(m % 1000).padStart(3, "0")}`;
}

/** The table's lines, ending with a newline. */
export function profileTable(answer: ProfileAnswerJson): string {
  const whole = answer.profile.totalMilligas;
  const rows: string[][] = [];
  const walk = (frame: ProfileFrameJson, depth: number) => {
    const share = whole === 0 ? 0 : (frame.totalMilligas * 100) / whole;
    rows.push([
      `${"  ".repeat(depth)}${KIND_MARKS[frame.kind] ?? ""}${frame.name}`,
      String(frame.calls),
      gasText(frame.selfMilligas),
      gasText(frame.totalMilligas),
      `${share.toFixed(1)} %`,
    ]);
    for (const child of frame.children) walk(child, depth + 1);
  };
  walk(answer.profile, 0);
  rows.push(["total: the transaction's gas", "", "", String(answer.gas), ""]);
  const header = ["frame", "calls", "self gas", "total gas", "share"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  const title = `gas profile of ${answer.requestKey} (chain ${answer.chain}, height ${answer.height})`;
  const check = answer.matchesStored
    ? "executed again at its block's state: the same output as stored"
    : `executed again at its block's state: NOT the stored output (differs in ${answer.differences.join(", ")})`;
  const body = rows.slice(0, -1).map(line);
  return `${[title, check, "", line(header), rule, ...body, rule, line(rows.at(-1)!)].join("\n")}\n`;
}
