import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CORE_NATIVES, CORE_NATIVES_BY_NAME } from "./index.ts";

/** Pact 5's `pact -b` list (the CoreBuiltin order without overload-internal names). */
const REFERENCE_ORDER =
  `+ - * / negate abs ^ not = != > >= < <= & | xor ~ shift round ceiling floor exp ln
sqrt log length take drop concat reverse contains sort remove mod map filter zip int-to-str
str-to-int fold distinct format enumerate show read-msg read-integer read-decimal read-string
read-keyset enforce-guard enforce-keyset keyset-ref-guard at make-list base64-encode
base64-decode str-to-list yield resume bind require-capability compose-capability
install-capability emit-event create-capability-guard create-capability-pact-guard
create-module-guard create-pact-guard create-table describe-keyset describe-module
describe-table define-keyset fold-db insert keys read select update with-default-read with-read
write tx-hash and? or? where not? hash continue parse-time format-time time add-time diff-time
hours minutes days compose create-principal is-principal typeof-principal validate-principal
namespace define-namespace describe-namespace chain-data is-charset pact-id pairing-check
scalar-mult point-add poseidon-hash-hack-a-chain typeof dec cond identity verify-spv
enforce-verifier acquire-module-admin hyperlane-message-id hyperlane-decode-token-message
hyperlane-encode-token-message list-modules static-redeploy hash-keccak256 hash-poseidon`.split(
    /\s+/,
  );

/** The natives other parts of the interpreter provide (evaluator, database, guards, …). */
const ELSEWHERE = new Set(
  `read-msg read-integer read-decimal read-string read-keyset enforce-guard enforce-keyset
keyset-ref-guard yield resume require-capability compose-capability install-capability
emit-event create-capability-guard create-capability-pact-guard create-module-guard
create-pact-guard create-table describe-keyset describe-module describe-table define-keyset
fold-db insert keys read select update with-default-read with-read write tx-hash continue
create-principal is-principal typeof-principal validate-principal namespace define-namespace
describe-namespace chain-data pact-id cond enforce-verifier acquire-module-admin
hyperlane-message-id hyperlane-decode-token-message hyperlane-encode-token-message list-modules
static-redeploy`.split(/\s+/),
);

describe("CORE_NATIVES", () => {
  it("lists every core native not provided elsewhere, in the reference's -b order", () => {
    assert.deepEqual(
      CORE_NATIVES.map((n) => n.name),
      REFERENCE_ORDER.filter((name) => !ELSEWHERE.has(name)),
    );
  });
  it("is indexed by name", () => {
    assert.equal(CORE_NATIVES_BY_NAME.size, CORE_NATIVES.length);
    for (const n of CORE_NATIVES) assert.equal(CORE_NATIVES_BY_NAME.get(n.name), n);
  });
  it("gives every native a consistent arity range and a positive flat cost", () => {
    for (const n of CORE_NATIVES) {
      assert.ok(n.minArgs >= 0 && n.minArgs <= n.maxArgs, n.name);
      assert.ok(n.gas > 0, n.name);
    }
  });
});
