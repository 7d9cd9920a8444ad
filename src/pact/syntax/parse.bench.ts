/**
 * Timing script (not a test): lexes and parses a generated ~1 MB module and prints MB/s.
 * "lex" fills the token buffer the parser reads; "lex + parse" builds the whole parse tree.
 * Run: node --import tsx src/pact/syntax/parse.bench.ts
 */
import { lexToBuffer } from "./lexer.ts";
import { parseProgram } from "./parser.ts";

const TARGET_BYTES = 1024 * 1024;
const ROUNDS = 20;

/** One function in the style of the coin contract: docs, types, caps, bindings, objects. */
function defun(i: number): string {
  return `
  (defun transfer-${i}:string (sender:string receiver:string amount:decimal)
    @doc "Transfer AMOUNT from SENDER to RECEIVER; case ${i}."
    @model [ (property (> amount 0.0)) (property (!= sender receiver)) ]
    (enforce (!= sender receiver) "sender cannot be the receiver of a transfer")
    (enforce (> amount 0.0) "transfer amount must be positive")
    ; debit, then credit
    (with-capability (TRANSFER sender receiver amount)
      (with-read coin-table sender { "balance" := balance, "guard" := g }
        (enforce-guard g)
        (update coin-table sender { "balance": (- balance amount) })
        (let* ((fee:decimal (* amount 0.0025))
               (rest (- amount fee)))
          (write coin-table receiver
            { "balance": rest, "guard": (read-keyset "ks-${i}") })
          (format "{} -> {}: {}" [sender, receiver, rest])))))
`;
}

function generate(): string {
  const parts = [
    `(module bench-coin GOVERNANCE
  "A generated module for timing the parser."
  (defschema account balance:decimal guard:guard)
  (deftable coin-table:{account})
  (defcap GOVERNANCE () (enforce-guard (keyset-ref-guard "ns.admin")))
  (defcap TRANSFER:bool (sender:string receiver:string amount:decimal)
    @managed amount TRANSFER-mgr
    (enforce (!= sender receiver) "same"))
`,
  ];
  let size = parts[0]!.length;
  for (let i = 0; size < TARGET_BYTES; i++) {
    const text = defun(i);
    parts.push(text);
    size += text.length;
  }
  parts.push(")\n");
  return parts.join("");
}

/** Prints the best and the median rate over `ROUNDS` runs (the best is least disturbed by GC). */
function measure(label: string, source: string, run: () => unknown): void {
  for (let i = 0; i < 3; i++) run(); // warm up
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  times.sort((a, b) => a - b);
  const mb = Buffer.byteLength(source) / (1024 * 1024);
  const rate = (seconds: number) => `${(mb / seconds).toFixed(1)} MB/s`;
  const best = times[0]!;
  const median = times[times.length >> 1]!;
  console.log(
    `${label.padEnd(12)} best ${rate(best)} (${(best * 1000).toFixed(1)} ms), ` +
      `median ${rate(median)} (${(median * 1000).toFixed(1)} ms) for ${mb.toFixed(2)} MB`,
  );
}

const source = generate();
console.log(`tokens: ${lexToBuffer(source).count}`);
measure("lex", source, () => lexToBuffer(source));
measure("lex + parse", source, () => parseProgram(source, "bench.pact"));
