import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keyset, testRuntime } from "../test-support/test-runtime.ts";
import { principalOf, principalType } from "./principals.ts";

const K1 = "584deb6f81d8efe67767309d1732019cf6ad14f9f0007cff50c730ef62521c68";
const K2 = "4440249a122879f2060814e1c4348cdfe0cbf971017ab1f43a0eaf9799583271";
const K3 = "2f625f20a1a6fffb60455bf957779a82e3d811d350f2b9bc8d3d5549bfd4a953";
const HASH = "aqukm-5Jj6ITLeQfhNYydmtDccinqdJylD9CMlLKQDI";

describe("principalOf", () => {
  it("gives a single ED25519 keys-all keyset a k: principal", () => {
    assert.equal(principalOf(keyset([K1])), `k:${K1}`);
  });

  it("gives other keysets a w: principal hashing their keys, with the predicate", () => {
    assert.equal(
      principalOf(keyset([K2, K3])),
      "w:5PhRgNM3oePrkfAKhk9dYmjRqOhEEhbR2eyFz8HU_ew:keys-all",
    );
    assert.match(principalOf(keyset([K1], "keys-any")), /^w:[A-Za-z0-9_-]{43}:keys-any$/);
    assert.match(principalOf(keyset(["not-hex"])), /^w:[A-Za-z0-9_-]{43}:keys-all$/);
  });

  it("names keyset references, module guards and pact guards", () => {
    assert.equal(principalOf({ kind: "keyset-ref", namespace: "ns", name: "ks3" }), "r:ns.ks3");
    assert.equal(
      principalOf({
        kind: "module-guard",
        module: { namespace: "test-ns", name: "tester" },
        name: "tester",
      }),
      "m:test-ns.tester:tester",
    );
    assert.equal(
      principalOf({
        kind: "pact-guard",
        pactId: "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g",
        name: "pg",
      }),
      "p:DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g:pg",
    );
  });

  it("hashes a user guard's arguments by their JSON encoding", () => {
    const g = {
      kind: "user-guard" as const,
      fun: "tester.both-guard",
      args: [keyset([K1]), keyset([K2, K3])],
    };
    assert.equal(principalOf(g), `u:tester.both-guard:${HASH}`);
  });

  it("hashes a capability guard's name, arguments and pact id", () => {
    // The principal of marmalade's sale escrow account in Pact's own tests.
    const sale = "C1vw1eMf_DZV3oZjyinRIKrQV2rPMBMh3lydeduo8yg";
    const cg = {
      kind: "capability-guard" as const,
      name: "marmalade-v2.ledger.SALE_PRIVATE",
      args: [sale],
      pactId: sale,
    };
    assert.equal(principalOf(cg), "c:WT_MPlkws_-GywvQmomGZwGsCJAcIWqrMSA9ie82FRc");
    assert.notEqual(principalOf({ ...cg, pactId: null }), principalOf(cg));
  });
});

describe("principalType", () => {
  it("recognises each well-formed principal", () => {
    assert.equal(principalType(`k:${K1}`), "k:");
    assert.equal(principalType("w:5PhRgNM3oePrkfAKhk9dYmjRqOhEEhbR2eyFz8HU_ew:keys-all"), "w:");
    assert.equal(principalType("r:ns.ks3"), "r:");
    assert.equal(principalType("r:TEST <1>."), "r:");
    assert.equal(principalType(`u:test-ns.tester.both-guard:${HASH}`), "u:");
    assert.equal(principalType("m:test-ns.tester:tester"), "m:");
    assert.equal(principalType("p:DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g:pact-guard"), "p:");
    assert.equal(principalType(`c:${HASH}`), "c:");
  });

  it("refuses wrong lengths, empty parts and unknown prefixes", () => {
    assert.equal(principalType(`k:${K1}7`), null);
    assert.equal(principalType(`k:${K1.slice(1)}`), null);
    assert.equal(principalType("w:5PhRgNM3oePrkfAKhk9dYmjRqOhEEhbR2eyFz8HU_:keys-all"), null);
    assert.equal(principalType("w:5PhRgNM3oePrkfAKhk9dYmjRqOhEEhbR2eyFz8HU_ew:"), null);
    assert.equal(principalType("r:"), null);
    assert.equal(principalType("r:ns.ks rest"), null);
    assert.equal(principalType("m::tester"), null);
    assert.equal(principalType("m:test-ns.tester:"), null);
    assert.equal(principalType("u:test-ns.tester.both-guard:"), null);
    assert.equal(principalType(`u::${HASH}`), null);
    assert.equal(principalType(`c:${HASH}s`), null);
    assert.equal(principalType(`x:${HASH}`), null);
    assert.equal(principalType(""), null);
  });
});

describe("principal natives", () => {
  it("create, test, type and validate principals", () => {
    const t = testRuntime();
    t.data({ ks1: keyset([K1]) });
    assert.equal(t.run(`(create-principal (read-keyset "ks1"))`), `k:${K1}`);
    assert.equal(t.run(`(validate-principal (read-keyset "ks1") "k:${K1}")`), true);
    assert.equal(t.run(`(validate-principal (read-keyset "ks1") "k:other")`), false);
    assert.equal(t.run(`(is-principal "k:${K1}")`), true);
    assert.equal(t.run(`(typeof-principal "r:")`), "");
    assert.equal(t.run(`(typeof-principal "r:x")`), "r:");
    assert.equal(
      t.fail(`(create-principal "k")`).message,
      "Type error: failed to call native function create-principal with argument(s) of type(s): string",
    );
  });
});
