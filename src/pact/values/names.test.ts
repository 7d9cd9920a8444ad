import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  canonicalHash,
  isPredicateName,
  parseFullyQualifiedName,
  parseJsonTableName,
  parseModuleName,
  parseQualifiedName,
  renderModuleName,
  renderQualifiedName,
} from "./names.ts";

const HASH = "rE7DU8jlQL9x_MPYuniZJf5ICBTAEHAIFQCB4blofP4";

describe("Pact names", () => {
  it("parses module names", () => {
    assert.deepEqual(parseModuleName("coin"), { namespace: null, name: "coin" });
    assert.deepEqual(parseModuleName("free.my-mod"), { namespace: "free", name: "my-mod" });
    for (const bad of ["", "a.b.c", "1a", "a.", ".a", "a b"])
      assert.equal(parseModuleName(bad), null, bad);
    assert.equal(renderModuleName({ namespace: "n", name: "m" }), "n.m");
  });
  it("parses qualified names", () => {
    assert.deepEqual(parseQualifiedName("m.f"), {
      module: { namespace: null, name: "m" },
      name: "f",
    });
    assert.deepEqual(parseQualifiedName("n.m.f"), {
      module: { namespace: "n", name: "m" },
      name: "f",
    });
    for (const bad of ["f", "a.b.c.d", "m.", "m.f g"])
      assert.equal(parseQualifiedName(bad), null, bad);
    assert.equal(
      renderQualifiedName({ module: { namespace: "n", name: "m" }, name: "f" }),
      "n.m.f",
    );
    assert.ok(isPredicateName("keys-all") && isPredicateName("m.p") && !isPredicateName("a.b.c.d"));
  });
  it("parses fully qualified names with a module hash", () => {
    assert.deepEqual(parseFullyQualifiedName(`coin.TRANSFER.{${HASH}}`), {
      module: { namespace: null, name: "coin" },
      name: "TRANSFER",
      hash: HASH,
    });
    assert.deepEqual(parseFullyQualifiedName(`n.m.C.{${HASH}}`)?.module, {
      namespace: "n",
      name: "m",
    });
    assert.equal(parseFullyQualifiedName("coin.TRANSFER"), null);
    assert.equal(parseFullyQualifiedName("coin.TRANSFER.{a}"), null); // not base64url of whole bytes
  });
  it("parses JSON table names and module hashes", () => {
    assert.deepEqual(parseJsonTableName("free.m:accounts"), {
      module: { namespace: "free", name: "m" },
      name: "accounts",
    });
    assert.equal(parseJsonTableName("free.m_accounts"), null);
    assert.equal(canonicalHash(HASH), HASH);
    assert.equal(canonicalHash("abc"), null); // 2 bytes, not 32
    assert.equal(canonicalHash("abc", null), "abc");
  });
});
