/**
 * Work Pact 5's table prices below what it costs here is bounded without changing the gas
 * reported: the charges stay Pact's, and a command doing too much of that work fails with a gas
 * error naming it (`PactGasMeter.unpriced`, the rules in natives.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ReplSession } from "../repl/session.ts";
import { PactError } from "../runtime/errors.ts";
import { intPowCost } from "./costs.ts";
import { PactGasMeter, TABLE_GAS_MODEL } from "./meter.ts";

const N = 100;

/** Runs `code` under the table model and a limit of `limitGas`: its milligas, or its error. */
function run(code: string, limitGas = 150_000): number | string {
  const session = new ReplSession({
    line: () => {},
    readFile: () => {
      throw new Error("no files");
    },
  });
  const meter = new PactGasMeter(TABLE_GAS_MODEL, limitGas * 1000);
  session.rt.env.gas = meter;
  try {
    session.runSource("unpriced.repl", code);
  } catch (e) {
    if (e instanceof PactError) return e.message;
    throw e;
  }
  return meter.used();
}

describe("work gas does not price", () => {
  it("int-to-str of a million-digit integer costs Pact's charge, found at once", () => {
    const power = intPowCost(3n, 1_000_000n);
    assert.equal(run("(int-to-str 10 (^ 3 1000000))"), N + power + N + 477_122 * 100);
    // base 64: ⌊198,121 bytes · 4/3⌋ characters
    assert.equal(run("(int-to-str 64 (^ 3 1000000))"), N + power + N + 264_161 * 100);
  });

  it("drop of a long list keeps Pact's price (nothing), and copying it in a loop is bounded", () => {
    assert.equal(run("(length (drop 1 (enumerate 1 100000)))"), N + 800_000 + N + N);
    assert.equal(
      run(
        "(let ((l (enumerate 1 100000))) (fold (lambda (a i) (+ a (length (drop 1 l)))) 0 (enumerate 1 100000)))",
      ),
      "Work that gas does not price exceeded: copying the 99999 elements drop keeps would bring it to 122398776 steps; a command may do 5000000 plus 10 per milligas charged (122316500 so far)",
    );
  });

  it("mod of a large integer keeps its flat price, and repeating it is bounded", () => {
    const power = intPowCost(3n, 1_000_000n);
    assert.equal(run("(mod (^ 3 1000000) 7)"), N + power + N);
    assert.equal(
      run("(let ((x (^ 3 1000000))) (map (lambda (i) (mod x 7)) (enumerate 1 10000)))"),
      "Work that gas does not price exceeded: mod of 32768 words would bring it to 815824896 steps; a command may do 5000000 plus 10 per milligas charged (815766250 so far)",
    );
  });

  it("sorting many objects by a field is bounded", () => {
    assert.equal(
      run(
        '(let ((os (map (lambda (i) {"a": i}) (enumerate 1 20000)))) (map (lambda (i) (sort ["a"] os)) (enumerate 1 1000)))',
      ),
      "Work that gas does not price exceeded: sorting 20000 objects by fields would bring it to 72000000 steps; a command may do 5000000 plus 10 per milligas charged (62700500 so far)",
    );
  });

  it("the length of a long string keeps Pact's price, and repeating it is bounded", () => {
    const s = "é".repeat(100_000);
    assert.equal(run(`(length "${s}")`), N + 1001);
    assert.equal(
      run(`(let ((s "${s}")) (map (lambda (i) (length s)) (enumerate 1 10000)))`),
      "Work that gas does not price exceeded: counting the code points of 100000 UTF-16 units would bring it to 16800000 steps; a command may do 5000000 plus 10 per milligas charged (16779830 so far)",
    );
  });

  it("take and drop of a long string walk only the code points they count", () => {
    const s = `${"😀".repeat(10)}${"a".repeat(100_000)}`;
    assert.equal(run(`(take 3 "${s}")`), N + 300);
    assert.equal(run(`(length (drop 9 "${s}"))`), N + N + 1001);
    assert.equal(run(`(take -2 "${s}")`), N + 200);
  });
  it("contains of a value of another kind than a long list's keeps its price, and repeating it is bounded", () => {
    assert.equal(run('(contains "a" (enumerate 1 1000))'), N + 8000 + N);
    assert.equal(
      run(
        '(let ((l (enumerate 1 100000))) (map (lambda (i) (contains "a" l)) (enumerate 1 1000)))',
      ),
      "Work that gas does not price exceeded: comparing 100000 elements would bring it to 16000000 steps; a command may do 5000000 plus 10 per milligas charged (14090000 so far)",
    );
  });
});
