/**
 * Pact interpreter throughput on one core: native calls per second for an arithmetic `fold` over
 * 100,000 elements, `format` in a loop, object construction and field access, and a module whose
 * functions call each other several times per step. Each program is compiled once and run
 * repeatedly; natives are counted by wrapping them (only here), so the rate is exact.
 * Usage: npm run bench -- pact-eval
 */
import type { CompileUnit } from "../src/pact/compile/context.ts";
import { defaultEnv } from "../src/pact/eval/env.ts";
import { ENV_NATIVES } from "../src/pact/eval/env-natives.ts";
import { Runtime } from "../src/pact/eval/runtime.ts";
import { runTopLevel } from "../src/pact/eval/toplevel.ts";
import { CORE_NATIVES } from "../src/pact/natives/index.ts";
import type { NativeDef } from "../src/pact/runtime/types.ts";
import { parseReplProgram } from "../src/pact/syntax/parser.ts";

/** How long each program is measured. */
const MEASURE_MS = 2000;
/** Elements per run. */
const N = 100_000;

let nativeCalls = 0;
const counted: NativeDef[] = [...CORE_NATIVES, ...ENV_NATIVES].map((def) => ({
  ...def,
  impl: (ctx, args) => {
    nativeCalls++;
    return def.impl(ctx, args);
  },
}));
const natives = new Map(counted.map((n) => [n.name, n]));
const rt = new Runtime(defaultEnv(natives));

/** Compiles and runs `source` once (a module definition, or the program being measured). */
function run(source: string): void {
  for (const form of parseReplProgram(source, "bench.repl")) {
    const unit: CompileUnit = {
      file: "bench.repl",
      source,
      natives,
      names: rt.loaded,
      coverage: null,
    };
    runTopLevel(rt, form, unit);
  }
}

run(`
(module bench G
  (defcap G () true)
  (defun sq:integer (x:integer) (* x x))
  (defun add:integer (a:integer b:integer) (+ a b))
  (defun next:integer (acc:integer x:integer) (add acc (mod (sq x) 7)))
  (defun twice:integer (acc:integer x:integer) (next (next acc x) (+ x 1))))
`);

const programs: readonly { name: string; source: string }[] = [
  {
    name: "fold with arithmetic",
    source: `(fold (lambda (acc x) (+ acc (* (mod x 13) 2))) 0 (enumerate 1 ${N}))`,
  },
  {
    name: "format in a loop",
    source: `(length (map (lambda (i) (format "item {} of {}: {}" [i ${N} "ok"])) (enumerate 1 ${N})))`,
  },
  {
    name: "objects: build and read fields",
    source: `(fold (lambda (acc i) (let ((o {"a": i, "b": (+ i 1), "c": "x"})) (+ acc (- (at "b" o) (at "a" o))))) 0 (enumerate 1 ${N}))`,
  },
  {
    name: "module: defun calls per step",
    source: `(fold (lambda (acc x) (bench.twice acc x)) 0 (enumerate 1 ${N}))`,
  },
];

console.log(
  `Pact evaluation, ${N.toLocaleString("en-US")} elements per run, ${MEASURE_MS} ms each`,
);
for (const p of programs) {
  run(p.source); // warm-up
  nativeCalls = 0;
  let runs = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MEASURE_MS) {
    run(p.source);
    runs++;
    elapsed = performance.now() - start;
  }
  const perSecond = (count: number) => Math.round((count * 1000) / elapsed).toLocaleString("en-US");
  console.log(
    `${p.name.padEnd(32)} ${perSecond(runs * N).padStart(12)} elements/s  ${perSecond(nativeCalls).padStart(12)} native calls/s`,
  );
}
