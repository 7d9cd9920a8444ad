/**
 * Gas calibration: every on-chain native (grouped in families) at its worst inputs, run as a
 * command through the interpreter's entry point (`executeCommand`, as `local` and blocks run
 * commands) under a block's gas limit, reporting microseconds of one core per unit of gas.
 *
 * Each case binds an input (`x`, usually read from the command's data: the largest inputs a
 * request body allows) and applies a native to it in a loop until the gas limit (or the bound on
 * work gas does not price) stops it. The figure is the command's time divided by the gas it
 * reported, the best of a few runs; "beyond" is the time and gas beyond the input's setup (the
 * same program without the loop), which shows the native alone where gas prices it (where the
 * unpriced work bound stops the command, that work is paid by all the gas charged before it).
 * The aim is at most 20 µs per gas, so a full 150,000-gas block costs at most 3 s of one core.
 *
 * Usage: node --import tsx bench/gas-calibration.ts [family-or-native …]
 */
import { parseCommand, signCommand } from "../src/command/index.ts";
import type { ParsedCommand } from "../src/command/types.ts";
import { executeCommand, FREE_GAS, gasMeterFor } from "../src/execution/index.ts";
import { openMemoryPactDb, type PactDb } from "../src/pact/db/index.ts";
import { PactTime } from "../src/pact/values/index.ts";

/** A block's gas limit: the most one command can use in a block. */
const GAS_LIMIT = 150_000;
/** Runs of each case; the fastest counts. */
const RUNS = 2;
/** The aim, in microseconds per gas. */
const AIM_US_PER_GAS = 20;

const BLOCK = { height: 7n, time: new PactTime(1_700_000_000_000_000n), prevBlockHash: "prev" };

/** Inputs as large as a 2 MB request body carries. */
const DATA = {
  ascii: "abcdefghij".repeat(100_000),
  twoByte: "abcdé€ghij".repeat(50_000),
  astral: "abcd😀fghi".repeat(50_000),
  ints: Array.from({ length: 400_000 }, (_, i) => i),
  same: Array.from({ length: 400_000 }, () => 7),
  objects: Array.from({ length: 20_000 }, (_, i) => ({ a: (i * 7919) % 20_000, b: "x" })),
  nested: [Array.from({ length: 300_000 }, (_, i) => i)],
  digits: "9".repeat(512),
};

interface Case {
  readonly family: string;
  readonly native: string;
  /** The input bound to `x`. */
  readonly input: string;
  /** The call measured, on `x`. */
  readonly call: string;
}

const BIG = "(^ 3 1000000)"; // 1.6 million bits
const FLAT = "(^ 10 199)"; // 662 bits
const CASES: readonly Case[] = [
  // arithmetic on the largest integers and decimals
  // the largest integers priced flat (664 bits), and the largest a command can build
  { family: "arithmetic", native: "+", input: FLAT, call: "(+ x x)" },
  { family: "arithmetic", native: "-", input: FLAT, call: "(- x 1)" },
  { family: "arithmetic", native: "*", input: FLAT, call: "(* x x)" },
  { family: "arithmetic", native: "/", input: FLAT, call: "(/ x 7)" },
  { family: "arithmetic", native: "mod", input: BIG, call: "(mod x 7)" },
  {
    family: "arithmetic",
    native: "mod (half size)",
    input: `[${BIG} (^ 3 500000)]`,
    call: "(mod (at 0 x) (at 1 x))",
  },
  { family: "arithmetic", native: "abs", input: BIG, call: "(abs x)" },
  { family: "arithmetic", native: "negate", input: BIG, call: "(negate x)" },
  { family: "arithmetic", native: "^", input: "3", call: "(^ x 1000000)" },
  { family: "arithmetic", native: "shift", input: "1", call: "(shift x 6000000)" },
  { family: "arithmetic", native: "& | xor", input: BIG, call: "(xor (& x x) (| x x))" },
  { family: "arithmetic", native: "~", input: BIG, call: "(~ x)" },
  { family: "arithmetic", native: "dec", input: BIG, call: "(dec x)" },
  {
    family: "arithmetic",
    native: "round floor ceiling",
    input: `(dec ${BIG})`,
    call: "(round x 2)",
  },
  { family: "arithmetic", native: "decimal +", input: `(dec ${FLAT})`, call: "(+ x 0.5)" },
  { family: "arithmetic", native: "decimal *", input: `(dec ${FLAT})`, call: "(* x 1.5)" },
  { family: "arithmetic", native: "decimal /", input: `(dec ${FLAT})`, call: "(/ x 3.0)" },
  { family: "transcendental", native: "sqrt", input: BIG, call: "(sqrt x)" },
  { family: "transcendental", native: "ln", input: BIG, call: "(ln x)" },
  { family: "transcendental", native: "log", input: BIG, call: "(log 7 x)" },
  { family: "transcendental", native: "exp", input: "700", call: "(exp x)" },
  { family: "transcendental", native: "decimal ^", input: "1.0000001", call: "(^ x 1234567.5)" },
  // comparisons
  { family: "comparison", native: "= (integers)", input: BIG, call: "(= x x)" },
  { family: "comparison", native: "< (strings)", input: '(read-msg "ascii")', call: "(< x x)" },
  { family: "comparison", native: "= (lists)", input: '(read-msg "ints")', call: "(= x x)" },
  // strings
  { family: "strings", native: "length", input: '(read-msg "twoByte")', call: "(length x)" },
  {
    family: "strings",
    native: "length (astral)",
    input: '(read-msg "astral")',
    call: "(length x)",
  },
  { family: "strings", native: "take", input: '(read-msg "twoByte")', call: "(take 1 x)" },
  { family: "strings", native: "take -", input: '(read-msg "twoByte")', call: "(take -1 x)" },
  { family: "strings", native: "drop", input: '(read-msg "twoByte")', call: "(drop 1 x)" },
  {
    family: "strings",
    native: "drop (astral)",
    input: '(read-msg "astral")',
    call: "(drop 499999 x)",
  },
  { family: "strings", native: "reverse", input: '(read-msg "astral")', call: "(reverse x)" },
  {
    family: "strings",
    native: "contains",
    input: '(read-msg "twoByte")',
    call: '(contains "zz" x)',
  },
  { family: "strings", native: "concat", input: '(read-msg "twoByte")', call: "(concat [x x])" },
  { family: "strings", native: "+", input: '(read-msg "twoByte")', call: "(+ x x)" },
  {
    family: "strings",
    native: "str-to-list",
    input: '(read-msg "twoByte")',
    call: "(str-to-list x)",
  },
  {
    family: "strings",
    native: "is-charset",
    input: '(read-msg "twoByte")',
    call: "(is-charset 1 x)",
  },
  {
    family: "strings",
    native: "base64-encode",
    input: '(read-msg "twoByte")',
    call: "(base64-encode x)",
  },
  { family: "strings", native: "str-to-int", input: '(read-msg "digits")', call: "(str-to-int x)" },
  { family: "strings", native: "int-to-str 10", input: BIG, call: "(int-to-str 10 x)" },
  { family: "strings", native: "int-to-str 7", input: BIG, call: "(int-to-str 7 x)" },
  { family: "strings", native: "int-to-str 64", input: BIG, call: "(int-to-str 64 x)" },
  {
    family: "strings",
    native: "format",
    input: '(read-msg "twoByte")',
    call: '(format "{}{}" [x x])',
  },
  { family: "strings", native: "show", input: '(read-msg "nested")', call: "(show x)" },
  { family: "hashing", native: "hash (string)", input: '(read-msg "twoByte")', call: "(hash x)" },
  { family: "hashing", native: "hash (list)", input: '(read-msg "ints")', call: "(hash x)" },
  {
    family: "hashing",
    native: "hash-keccak256",
    input: '(read-msg "ascii")',
    call: "(hash-keccak256 [x])",
  },
  {
    family: "hashing",
    native: "hash-poseidon",
    input: "1",
    call: "(hash-poseidon x x x x x x x x)",
  },
  // lists
  { family: "lists", native: "length", input: '(read-msg "ints")', call: "(length x)" },
  { family: "lists", native: "take", input: '(read-msg "ints")', call: "(take 1 x)" },
  { family: "lists", native: "drop", input: '(read-msg "ints")', call: "(drop 1 x)" },
  { family: "lists", native: "reverse", input: '(read-msg "ints")', call: "(reverse x)" },
  { family: "lists", native: "+", input: '(read-msg "ints")', call: "(+ x [1])" },
  { family: "lists", native: "at", input: '(read-msg "ints")', call: "(at 399999 x)" },
  { family: "lists", native: "contains", input: '(read-msg "ints")', call: "(contains -1 x)" },
  { family: "lists", native: "distinct", input: '(read-msg "ints")', call: "(distinct x)" },
  { family: "lists", native: "distinct (equal)", input: '(read-msg "same")', call: "(distinct x)" },
  { family: "lists", native: "sort", input: '(take 3000 (read-msg "ints"))', call: "(sort x)" },
  {
    family: "lists",
    native: "sort (one large element)",
    input: '(read-msg "nested")',
    call: "(sort x)",
  },
  {
    family: "lists",
    native: "sort (by fields)",
    input: '(read-msg "objects")',
    call: '(sort ["a"] x)',
  },
  { family: "lists", native: "make-list", input: "7", call: "(make-list 100000 x)" },
  { family: "lists", native: "enumerate", input: "0", call: "(enumerate x 100000)" },
  { family: "lists", native: "str-to-list", input: '(read-msg "ascii")', call: "(str-to-list x)" },
  { family: "objects", native: "at", input: '(at 0 (read-msg "objects"))', call: '(at "a" x)' },
  {
    family: "objects",
    native: "remove",
    input: '(at 0 (read-msg "objects"))',
    call: '(remove "a" x)',
  },
  { family: "objects", native: "+", input: '(at 0 (read-msg "objects"))', call: "(+ x x)" },
  // higher-order natives and callbacks
  { family: "higher-order", native: "map", input: '(read-msg "ints")', call: "(map (identity) x)" },
  {
    family: "higher-order",
    native: "filter",
    input: '(read-msg "ints")',
    call: "(filter (constantly true) x)",
  },
  { family: "higher-order", native: "fold", input: '(read-msg "ints")', call: "(fold (+) 0 x)" },
  { family: "higher-order", native: "zip", input: '(read-msg "ints")', call: "(zip (+) x x)" },
  {
    family: "higher-order",
    native: "deep fold",
    input: '(take 1000 (read-msg "ints"))',
    call: "(fold (lambda (a b) (fold (lambda (c d) (+ c d)) a x)) 0 x)",
  },
  // data
  { family: "data", native: "read-msg", input: '""', call: '(read-msg "nested")' },
  { family: "data", native: "read-integer", input: '""', call: '(read-integer "digits")' },
  // time
  {
    family: "time",
    native: "parse-time",
    input: '"%Y-%m-%dT%H:%M:%SZ"',
    call: '(parse-time x "2024-01-01T00:00:00Z")',
  },
  {
    family: "time",
    native: "format-time",
    input: '(time "2024-01-01T00:00:00Z")',
    call: '(format-time "%Y-%m-%dT%H:%M:%S.%v %z %A %B" x)',
  },
  {
    family: "time",
    native: "add-time",
    input: '(time "2024-01-01T00:00:00Z")',
    call: "(add-time x (days 1000000))",
  },
];

const natives = process.argv.slice(2);
const selected = CASES.filter(
  (c) => natives.length === 0 || natives.includes(c.family) || natives.includes(c.native),
);

/** The inputs `code` reads (decoding all of them would weigh on every case). */
function dataFor(code: string): Partial<typeof DATA> {
  return Object.fromEntries(Object.entries(DATA).filter(([key]) => code.includes(`"${key}"`)));
}

function command(code: string): ParsedCommand {
  const cmd = JSON.stringify({
    payload: { exec: { code, data: dataFor(code) } },
    meta: {
      creationTime: 1700000000,
      ttl: 600,
      gasLimit: GAS_LIMIT,
      chainId: "0",
      gasPrice: 1e-8,
      sender: "sender00",
    },
    signers: [],
    networkId: "development",
    nonce: code,
  });
  const parsed = parseCommand(JSON.parse(JSON.stringify(signCommand(cmd, [], "blake2b"))));
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join("; "));
  return parsed.command;
}

interface Measured {
  readonly ms: number;
  readonly gas: number;
  readonly outcome: string;
}

function measure(db: PactDb, code: string): Measured {
  const cmd = command(code);
  let best: Measured | null = null;
  for (let run = 0; run < RUNS; run++) {
    const meter = gasMeterFor({ kind: "metered", limit: GAS_LIMIT, perAction: null });
    const started = performance.now();
    const outcome = executeCommand(cmd, {
      db,
      mode: "local",
      block: BLOCK,
      gas: FREE_GAS,
      meter,
      flags: new Set(),
    });
    const ms = performance.now() - started;
    const text =
      outcome.result.status === "success" ? "ok" : outcome.result.error.message.slice(0, 60);
    if (best === null || ms < best.ms) best = { ms, gas: outcome.gas, outcome: text };
  }
  return best!;
}

/** Applies `call` to `x` up to a million times, each result dropped. */
function looped(c: Case, call: string): string {
  const body = `(let ((r ${call})) k)`;
  return `(let ((x ${c.input}) (l (enumerate 1 100)))
  (fold (lambda (i a) (fold (lambda (j b) (fold (lambda (k c) ${body}) j l)) i l)) 0 l))`;
}

const db = openMemoryPactDb();
/** Cases stopped by the bound on work gas does not price, apart: their gas is mostly setup. */
const UNPRICED_STOP = "Work that gas does not price exceeded";
const rows: {
  family: string;
  native: string;
  perGas: number;
  beyondMs: number;
  unpriced: boolean;
}[] = [];
console.log(
  `Gas calibration: µs of one core per gas unit, gas limit ${GAS_LIMIT.toLocaleString("en-US")}, best of ${RUNS}`,
);
console.log(
  `${"family".padEnd(15)} ${"native".padEnd(26)} ${"gas".padStart(8)} ${"ms".padStart(8)} ${"µs/gas".padStart(8)} ${"beyond".padStart(8)}  outcome`,
);
for (const c of selected) {
  const setup = measure(db, `(let ((x ${c.input})) 0)`);
  const full = measure(db, looped(c, c.call));
  const perGas = (full.ms * 1000) / Math.max(1, full.gas);
  const beyond = (Math.max(0, full.ms - setup.ms) * 1000) / Math.max(1, full.gas - setup.gas);
  const beyondMs = Math.max(0, full.ms - setup.ms);
  const unpriced = full.outcome.startsWith(UNPRICED_STOP);
  rows.push({ family: c.family, native: c.native, perGas, beyondMs, unpriced });
  console.log(
    `${c.family.padEnd(15)} ${c.native.padEnd(26)} ${String(full.gas).padStart(8)} ${full.ms.toFixed(1).padStart(8)} ${perGas.toFixed(2).padStart(8)} ${beyond.toFixed(2).padStart(8)}  ${full.outcome}`,
  );
}

console.log("\nWorst per family (µs per gas of the whole command, gas-priced work):");
const priced = rows.filter((r) => !r.unpriced);
let worst = priced[0];
for (const family of new Set(priced.map((r) => r.family))) {
  const top = priced
    .filter((r) => r.family === family)
    .reduce((a, b) => (b.perGas > a.perGas ? b : a));
  if (worst === undefined || top.perGas > worst.perGas) worst = top;
  console.log(`  ${family.padEnd(15)} ${top.perGas.toFixed(2).padStart(8)}  ${top.native}`);
}
if (worst !== undefined) {
  console.log(
    `Overall worst: ${worst.perGas.toFixed(2)} µs/gas (${worst.family}: ${worst.native}); aim ≤ ${AIM_US_PER_GAS}`,
  );
}
const stopped = rows.filter((r) => r.unpriced);
if (stopped.length > 0) {
  const longest = stopped.reduce((a, b) => (b.beyondMs > a.beyondMs ? b : a));
  console.log(
    `Stopped by the unpriced-work bound: ${stopped.length} cases, at most ${longest.beyondMs.toFixed(1)} ms beyond their input (${longest.family}: ${longest.native})`,
  );
}
process.exitCode = worst !== undefined && worst.perGas > AIM_US_PER_GAS ? 1 : 0;
