/**
 * Gas goldens of our own: small programs run in the REPL under the table model, with the
 * milligas each must cost worked out by hand from Pact 5's table (the sums spell the parts out:
 * N = a native's flat cost 100, literals 100 per element, applications 25 per argument + 50).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ReplSession } from "../repl/session.ts";
import { PactError } from "../runtime/errors.ts";
import { PactGasMeter, TABLE_GAS_MODEL } from "./meter.ts";

const N = 100;

/** Runs `setup` (free), then `code`; returns the milligas `code` used. */
function milligas(code: string, setup = ""): number {
  const session = new ReplSession({
    line: () => {},
    readFile: () => {
      throw new Error("no files");
    },
  });
  const meter = new PactGasMeter(TABLE_GAS_MODEL, 1e15);
  session.rt.env.gas = meter;
  if (setup !== "") session.runSource("setup.repl", setup);
  meter.setUsed(0);
  session.runSource("golden.repl", code);
  return meter.used();
}

const TABLE_MODULE = `
(module m G
  (defcap G () true)
  (defschema row a:integer)
  (deftable t:{row})
  (defun f (x y) (+ x y)))
(create-table t)`;

describe("gas goldens: arithmetic and comparisons", () => {
  it("integers", () => {
    assert.equal(milligas("(+ 1 2)"), N + 30);
    assert.equal(milligas("(- 5 2)"), N + 30);
    assert.equal(milligas("(* 1000 1000)"), N + 27); // 10 bits: 30/20 + 26
    assert.equal(milligas("(/ 1000 3)"), N + 27);
    assert.equal(milligas("(^ 2 10)"), N + 216);
    assert.equal(milligas("(shift 1 10)"), N + 216 + 27);
    assert.equal(milligas("(mod 7 2)"), N);
    assert.equal(milligas("(abs -3)"), N);
  });

  it("decimals by mantissa", () => {
    assert.equal(milligas("(+ 1.5 2.25)"), N + 30);
    assert.equal(milligas("(* 1.5 2.0)"), N + 26); // mantissas 15, 20: 5 bits
  });

  it("transcendental functions", () => {
    assert.equal(milligas("(exp 2)"), 2000 + 64); // 2 · ⌈4^2.5⌉
    assert.equal(milligas("(ln 1000)"), 1000 + 60); // 10 · ⌈ln² 10⌉ · ⌈ln ln 10⌉
    assert.equal(milligas("(sqrt 1000)"), 1000 + 30); // 10 · ⌈ln 10⌉ · 1
  });

  it("comparisons by size", () => {
    assert.equal(milligas("(< 1 2)"), N + 64 + N);
    assert.equal(milligas('(< "abc" "abd")'), N + 3 + N);
    assert.equal(milligas("(> 1.5 1.25)"), N + 27 + 64 + N); // mantissas 15, 125: 7 bits
    // lists: the literals, ListComparison 2, then elements up to the first difference
    assert.equal(milligas("(= [1 2] [1 3])"), 2 * 200 + N + 200 + 2 * 164);
    assert.equal(milligas('(= {"a": 1} {"a": 1})'), 2 * 100 + N + 100 + 164);
    assert.equal(milligas("(= true false)"), N);
  });
});

describe("gas goldens: strings, lists and objects", () => {
  it("concatenation by length", () => {
    assert.equal(milligas('(+ "ab" "cde")'), N + 500);
    assert.equal(milligas("(+ [1] [2 3])"), 300 + N + 300);
    assert.equal(milligas('(concat ["ab" "c"])'), 200 + N + 300 + 2 * 40);
    assert.equal(milligas('(reverse "abcd")'), N + 400);
    assert.equal(milligas("(take 2 [1 2 3])"), 300 + N + 200);
    assert.equal(milligas('(take -5 "abc")'), N + 500);
    assert.equal(milligas("(drop 2 [1 2 3])"), 300 + N);
  });

  it("string operations by length", () => {
    assert.equal(milligas('(length "hello")'), N + 1);
    assert.equal(milligas('(str-to-list "abc")'), 250 + 301);
    assert.equal(milligas('(str-to-int "12345")'), N + 26);
    assert.equal(milligas('(base64-encode "abc")'), 250 + 16);
    assert.equal(milligas("(int-to-str 10 999)"), N + 300);
    assert.equal(milligas('(contains "b" "abc")'), N + 1 + 3 + N);
    assert.equal(milligas('(hash "abc")'), N + 300);
    assert.equal(milligas('(show "ab")'), N + 1000); // size 10
    // one started 100 bytes (146) and one chunk (2120)
    assert.equal(milligas('(hash-keccak256 ["aGk"])'), 100 + 1000 + 146 + 2120);
  });

  it("format renders values by size and charges the result's length", () => {
    // 1 renders for its size (12 bytes), "1-x" is 3 characters
    assert.equal(milligas('(format "{}-{}" [1 "x"])'), 200 + N + 1200 + 300);
    assert.equal(milligas('(format "no holes" [])'), N + 8 * 5 + 1);
  });

  it("objects by key length and size", () => {
    assert.equal(milligas('(at "bc" {"a": 1, "bc": 2})'), 200 + N + 2 * 2);
    assert.equal(milligas('(remove "a" {"a": 1, "bc": 2})'), 200 + N + 2 * 1 * 10);
    assert.equal(milligas('(contains "a" {"a": 1})'), 100 + N + 1 + N);
  });

  it("lists built by length and element size", () => {
    assert.equal(milligas('(make-list 3 "ab")'), N + 3 * 10);
    assert.equal(milligas("(enumerate 1 100 10)"), N + 10 * 8);
    assert.equal(milligas("(enumerate 5 5)"), N + 8);
    // 20 strings of 18 bytes, then sorting them: 18 · 20² / 1000
    assert.equal(milligas('(sort (make-list 20 "abcdefghij"))'), N + 360 + N + 7);
    assert.equal(milligas("(contains 3 [1 2 3])"), 300 + N + 3 * 164);
    // the first 1 against the second 1 and 2; then 2 alone
    assert.equal(milligas("(distinct [1 1 2])"), 300 + N + 2 * 164);
  });
});

describe("gas goldens: functions", () => {
  it("higher-order natives charge each element and each application", () => {
    // `(+ 1)` is a lambda around `+` (as Pact desugars it): each call applies it (75) too
    assert.equal(milligas("(map (+ 1) [1 2])"), 200 + N + 2 * (100 + 75 + N + 30));
    assert.equal(milligas("(fold (+) 0 [5 6 7])"), 300 + N + 3 * (100 + N + 30));
    assert.equal(milligas("(zip (+) [1 2] [3])"), 300 + N + 1 * (100 + N + 30));
  });

  it("lambdas and defuns cost 25 per argument + 50", () => {
    assert.equal(milligas("(let ((f (lambda (x) x))) (f 1))"), 75);
    assert.equal(milligas("(m.f 1 2)", TABLE_MODULE), 100 + N + 30);
  });

  it("try and enforce-one charge a step each", () => {
    assert.equal(milligas('(try 1 (enforce false "no"))'), 100);
    assert.equal(milligas('(enforce-one "x" [(= 1 2) (= 1 1)])'), 2 * (N + 164 + 100));
  });

  it("time natives", () => {
    assert.equal(milligas('(parse-time "%Y" "2020")'), 500 + 42);
    assert.equal(milligas('(format-time "%Y" (time "2020-01-01T00:00:00Z"))'), 500 + 500 + 41);
    assert.equal(milligas("(hours 2)"), 250 + 27);
  });
});

describe("gas goldens: state", () => {
  it("writes by the row's size and a schema check per field", () => {
    // {"a": 1}: 5 + (1 + 5 + 12) = 23 bytes at 200; one field checked at 25
    assert.equal(milligas('(insert m.t "k" {"a": 1})', TABLE_MODULE), 100 + 25000 + 25 + 4600);
    const written = `${TABLE_MODULE}\n(insert m.t "k" {"a": 1})`;
    assert.equal(milligas('(update m.t "k" {"a": 2})', written), 100 + 25000 + 2 * 25 + 4600);
    assert.equal(milligas('(read m.t "k")', written), 2500 + 2300);
    assert.equal(milligas('(with-read m.t "k" {"a" := a} a)', written), 2500 + 2300 + 75 + N + 1);
    assert.equal(milligas("(keys m.t)", written), 40_000_000);
  });

  it("keysets: reading the data, writing the keyset", () => {
    const data = '(env-data {"k": ["abc"]})';
    assert.equal(milligas('(read-keyset "k")', data), 200 + 1);
    // the keyset: 1 + (5 + 7) + 2 = 15 bytes
    assert.equal(milligas('(define-keyset "ks" (read-keyset "k"))', data), 201 + 5000 + 3000);
    assert.equal(milligas('(define-keyset "ks")', '(env-data {"ks": ["abc"]})'), 5000 + 2 + 3000);
  });

  it("namespaces: the name read, the record read or written", () => {
    const data = '(env-data {"k": ["abc"]})';
    // the namespace: 1 + ("ns": 6) + 2 · (2 + 15) = 41 bytes
    const define = '(define-namespace "ns" (read-keyset "k") (read-keyset "k"))';
    assert.equal(milligas(define, data), 2 * 201 + 25000 + 200 + 8200);
    assert.equal(milligas('(describe-namespace "ns")', `${data}\n${define}`), 100000 + 200 + 4100);
    assert.equal(milligas('(namespace "ns")', `${data}\n${define}`), N + 200 + 4100);
  });
});

describe("gas goldens: Hyperlane natives and verifiers", () => {
  it("charge their flat price and one milligas per character read or written", () => {
    // 34 header bytes and a 17-byte keyset reference: 68 characters read
    const message = Buffer.concat([new Uint8Array(34), Buffer.from('{"keysetref":"a"}')]);
    const text = message.toString("base64url");
    assert.equal(text.length, 68);
    assert.equal(milligas(`(hyperlane-decode-token-message "${text}")`), 2000 + 68);
    // a 3-field object literal (300); 34 bytes written are 46 characters
    assert.equal(
      milligas('(hyperlane-encode-token-message {"amount": 1.0, "chainId": "1", "recipient": ""})'),
      300 + 2000 + 46,
    );
  });

  it("enforce-verifier costs 10,000 in the defcap that calls it", () => {
    // with-capability applies the nullary capability (50)
    const setup = `(module v G (defcap G () true)
      (defcap C () (enforce-verifier "allow"))
      (defun f () (with-capability (C) 1)))
      (env-verifiers [{"name": "allow", "caps": [(C)]}])`;
    assert.equal(milligas("(v.f)", setup), 50 + 10_000);
  });
});

describe("gas goldens: deploying code", () => {
  // Pact's size estimate of the module (docs/gas.md): 400 per byte to desugar it (no source
  // information, the placeholder `#placeholder` of 16 bytes for its own hash), 100 per byte to
  // hash it, the dependency walk, and 200 per byte to store it (the REPL's source information of
  // 21 bytes per node, its real hash of 36 bytes).
  it("charges a module's desugaring, hash, dependency walk and storage", () => {
    // module: tag 1 + name 8 + governance (2 + 2 + name tag 1 + module 8 + "G" 5 + hash 16) +
    // definitions 5 + blessed 5 + imports 5 + implements 5 + hash 16 + transaction hash 36;
    // the defcap: 2 + 1 + its Arg (1 + 5 + 2) + parameters 5 + metadata 2 + `true` (2 + 3)
    const size = 1 + 8 + (2 + 2 + 1 + 8 + 5 + 16) + 4 * 5 + 16 + 36 + (2 + 1 + 8 + 5 + 2 + 5);
    assert.equal(size, 138);
    // the walk: one term node (5), one definition found among one loaded (⌈1 · ln 2⌉ · 200)
    const walk = 5 + 200;
    // stored: ModuleData 2 + an empty dependency map 5, both own hashes real (+20 each), four
    // source infos (module, defcap, its Arg, its body)
    const stored = 2 + 5 + size + 2 * 20 + 4 * 21;
    assert.equal(
      milligas("(module m G (defcap G () true))"),
      400 * size + 100 * size + walk + 200 * stored,
    );
  });

  it("charges loading a module used, and stores the definitions used with the new module", () => {
    const setup = "(begin-tx) (module a G (defcap G () true) (defun one () 1)) (commit-tx)";
    // a as stored: 2 + 5 + module (83 + two real hashes 72) + defcap 23 + defun 32 (2 + 1 + Arg
    // "one" 10 + parameters 5 + nullary 2 + literal 1 (2 + 2 + 8)), with 8 source infos estimated
    // at 19 bytes encoded each for setup.repl: 8 + a 1-byte head + 10
    const load = Math.floor((2 + 5 + (83 + 72) + 23 + 32 + 8 * 19) / 200) + 10;
    // b: the module 83 + 2 × 16, the defcap 23, `two` 2 + 1 + 10 + 5 + nullary 2 + application
    // 2 + 5 + `a.one` (2 + 1 + 2 + "one" 7 + a 8 + hash 36)
    const size = 83 + 2 * 16 + 23 + (2 + 1 + 10 + 5 + 2 + 2 + 5 + 56);
    assert.equal(size, 221);
    // The walk from b.G and b.two (names in order): G one node; two three nodes and a.one, found
    // among 2 (one search of ⌈ln 2⌉ · 200), new (two more: found 2, work list empty); a.one two
    // nodes; then 3 definitions found among the 4 loaded: ⌈3 · ln(4/3 + 1)⌉ · 200.
    const walk = 5 + 15 + 200 + 200 + 0 + 10 + 3 * 200;
    // stored: b with real hashes and 9 source infos; a.one with its name (1 + 1 + a 8 + "one" 7 +
    // 36 + 4) and 4 source infos
    const stored = 2 + 5 + (size + 2 * 20 + 9 * 21) + (1 + 52 + 32 + 4 * 21);
    assert.equal(
      milligas("(module b G (defcap G () true) (defun two () (a.one)))", setup),
      load + 400 * size + 100 * size + walk + 200 * stored,
    );
  });

  it("merges a module's definitions when code names it, not when it is read for an upgrade", () => {
    const session = new ReplSession({ line: () => {}, readFile: () => "" });
    session.runSource(
      "setup.repl",
      "(begin-tx) (module a G (defcap G () true)) (module b G (defcap G () true)) (commit-tx)",
    );
    const meter = new PactGasMeter(TABLE_GAS_MODEL, 1e15);
    session.rt.env.gas = meter;
    meter.startLog();
    session.runSource("golden.repl", "(begin-tx) (use a) (module b G (defcap G () true))");
    const charges = meter.takeLog().map((e) => `${e.what}: ${e.milligas}`);
    // a (one definition) read with nothing loaded; b read for its governance, without a merge;
    // both stored as 2 + 5 + 83 + 72 + 23 + 4 infos of 19 bytes: 261 bytes, 1 + 10 milligas
    assert.deepEqual(
      charges.filter((c) => c.includes("MOpLoadModule") || c.includes("MOpMergeDeps")),
      [
        "GModuleOp (MOpLoadModule): 11",
        "GModuleOp (MOpMergeDeps): 0",
        "GModuleOp (MOpLoadModule): 11",
      ],
    );
  });

  it("stores an interface with the loaded definitions of the modules its constants name", () => {
    const setup = "(begin-tx) (module a G (defcap G () true) (defconst ONE 1)) (commit-tx)";
    // a as stored: 2 + 5 + module 83 + 72, defcap 23, ONE 15 + its value 12, 6 source infos at 19
    const load = Math.floor((2 + 5 + 155 + 23 + 27 + 6 * 19) / 200) + 10;
    // i: 70; D: 2 + 1 + 2 + Arg 8, its term `a.ONE` 56 before evaluation, the value 12 after
    const desugared = 70 + 13 + 56;
    const hashed = 70 + 13 + 12;
    // stored: i with its real hash and 3 infos; a.G (name 1 + 50, 23 + 3 infos) and a.ONE (name
    // 1 + 52, 27 + 2 infos)
    const stored = 2 + 5 + (hashed + 21 + 3 * 21) + (51 + 23 + 3 * 21) + (53 + 27 + 2 * 21);
    assert.equal(
      milligas("(interface i (defconst D a.ONE))", setup),
      load + 400 * desugared + 100 * hashed + 200 * stored,
    );
  });

  it("charges an interface without the dependency walk", () => {
    // interface: tag 1 + name 8 + definitions 5 + imports 5 + `placeholder` 15 + transaction hash
    // 36; the signature: 2 + 1 + its Arg (1 + 5 + 2 + integer 3) + parameters (5 + 11)
    const size = 1 + 8 + 5 + 5 + 15 + 36 + (2 + 1 + 11 + 5 + 11);
    assert.equal(size, 100);
    // stored: InterfaceData 2 + no dependencies 5, the real hash (+21), four source infos
    const stored = 2 + 5 + size + 21 + 4 * 21;
    assert.equal(
      milligas("(interface i (defun f:integer (x:integer)))"),
      400 * size + 100 * size + 200 * stored,
    );
  });
});

describe("gas goldens: BN254 and Poseidon", () => {
  const G1 = '{"x": 1, "y": 2}'; // an object literal of 2 fields: 200
  const G2 = `{"x": [${[
    "10857046999023057135944570762232829481370756359578518086990519993285655852781",
    "11559732032986387107991004021392285783925812861821192530917403151452391805634",
  ].join(" ")}], "y": [${[
    "8495653923123431417604973247489272438418190587263600148770280649306958101930",
    "4082367875863433681332203403145435568316851327593401208105741076214120093531",
  ].join(" ")}]}`; // 200 for the object, 200 for each list
  it("point-add and scalar-mult cost Pact's constant per group", () => {
    assert.equal(milligas(`(point-add "g1" ${G1} ${G1})`), N + 5000 + 2 * 200);
    assert.equal(milligas(`(point-add "g2" ${G2} ${G2})`), N + 30000 + 2 * 600);
    assert.equal(milligas(`(scalar-mult "g1" ${G1} 2)`), N + 360000 + 200);
    assert.equal(milligas(`(scalar-mult "G2" ${G2} 2)`), N + 1450000 + 600);
  });
  it("pairing-check costs 3,760 per pair + 11,600, or 100,000 without pairs", () => {
    assert.equal(milligas("(pairing-check [] [])"), N + 100000);
    assert.equal(
      milligas(`(pairing-check [${G1} ${G1}] [${G2}])`),
      N + 2 * 3760 + 11600 + (2 * 100 + 2 * 200) + (100 + 600),
    );
  });
  it("Poseidon costs 50,000·n² + 38,000·n after its flat 124,000 and the list of inputs", () => {
    assert.equal(milligas("(hash-poseidon 1 2)"), 124000 + 2 * 100 + 50000 * 4 + 38000 * 2);
    assert.equal(
      milligas("(poseidon-hash-hack-a-chain 1 2 3)"),
      124000 + 300 + 50000 * 9 + 38000 * 3,
    );
  });
  it("static-redeploy writes the source text and the module data as the deploy wrote them", () => {
    const module = "(module m G (defcap G () true))"; // 31 bytes of text
    // 269 bytes of stored module data in the REPL's representation: the size the deploy's own
    // GWrite charges (src/pact/compile/module-hash/sizes.test.ts works such sizes out by hand).
    assert.equal(milligas('(static-redeploy "m")', module), N + 200 * (31 + 4) + 200 * 269);
  });
});

describe("gas limit", () => {
  it("stops the expression that passes it, with Pact's message", () => {
    const session = new ReplSession({ line: () => {}, readFile: () => "" });
    session.runSource("limit.repl", '(env-gasmodel "table") (env-gaslimit 1)');
    assert.throws(
      () => session.runSource("limit.repl", '(make-list 100 "abcdefghij")'),
      (e) => e instanceof PactError && e.message === 'Gas limit "1" exceeded: 2',
    );
  });
});
