/**
 * Compares Braid's gas with Pact 5's `builtinGas.golden`: each script of Pact's
 * `pact-tests/gas-goldens/` runs in a fresh REPL session under the table gas model with the
 * largest limit (as Pact's golden test runs it), and its total milligas is compared with the
 * golden entry for that native. Prints one line per native that differs, then the count that
 * match exactly.
 *
 *   node --import tsx scripts/gas-goldens.ts [GAS_GOLDENS_DIR]
 *
 * GAS_GOLDENS_DIR defaults to the extracted Pact 5 test suite's `gas-goldens` folder.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ReplSession } from "../src/pact/repl/session.ts";

const DEFAULT_DIR = "/tmp/pact5/pact-tests/gas-goldens";

/** Pact's golden test names a script after its native, except for these operators. */
const FILE_NAME_OF_OPERATOR: Readonly<Record<string, string>> = {
  "=": "eq",
  "!=": "neq",
  "&": "and",
  "*": "mult",
  "+": "add",
  "-": "sub",
  "/": "div",
  "<": "lt",
  "<=": "leq",
  ">": "gt",
  ">=": "geq",
  "^": "pow",
  "and?": "and-p",
  "not?": "not-p",
  "or?": "or-p",
  "|": "binary-or",
  "~": "binary-inverse",
};

/** Pact's limit in its golden test: `maxBound` of its milligas limit (a Word64). */
const SETUP = '(env-gasmodel "table") (env-gaslimit 18446744073709551)';

function goldenEntries(dir: string): Map<string, number> {
  const entries = new Map<string, number>();
  for (const line of readFileSync(join(dir, "goldens", "builtinGas.golden"), "utf8").split("\n")) {
    const at = line.lastIndexOf(": ");
    if (at > 0) entries.set(line.slice(0, at), Number(line.slice(at + 2)));
  }
  return entries;
}

/** The milligas one script uses, or the error that stopped it. */
function runScript(path: string): number | string {
  const session = new ReplSession({ line: () => {}, readFile: (p) => readFileSync(p, "utf8") });
  try {
    session.runSource("(setup)", SETUP);
    session.loadFile(path, false);
    const [used] = session.runSource("(measure)", "(env-milligas)");
    return used?.kind === "value" ? Number(used.text) : `no result: ${used?.text}`;
  } catch (e) {
    return e instanceof Error ? e.message.split("\n")[0]! : String(e);
  }
}

const dir = process.argv[2] ?? DEFAULT_DIR;
const golden = goldenEntries(dir);
const scripts = new Set(readdirSync(dir).filter((f) => f.endsWith(".repl")));
let matching = 0;
for (const [native, expected] of golden) {
  const file = `${FILE_NAME_OF_OPERATOR[native] ?? native}.repl`;
  if (!scripts.has(file)) {
    console.log(`${native}: no script ${file}`);
    continue;
  }
  const used = runScript(join(dir, file));
  if (used === expected) matching++;
  else console.log(`${native}: Pact ${expected}, Braid ${used}`);
}
console.log(`${matching} of ${golden.size} natives match Pact's gas exactly`);
