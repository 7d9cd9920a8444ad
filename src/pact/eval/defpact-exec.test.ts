import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "../values/decimal.ts";
import type { PactValue } from "../values/types.ts";
import {
  type DefPactExec,
  decodeDefPactExec,
  encodeContinuation,
  encodeDefPactExec,
  nestedPactId,
} from "./defpact-exec.ts";

const PLAIN: DefPactExec = {
  stepCount: 2,
  yield: null,
  step: 0,
  pactId: "pid",
  continuation: { def: "m.p", args: ["x", 1n] },
  stepHasRollback: true,
  nested: new Map(),
};

const CROSS_CHAIN: DefPactExec = {
  ...PLAIN,
  stepHasRollback: false,
  yield: {
    data: new Map<string, PactValue>([
      ["amount", Decimal.parseLiteral("1.5")],
      ["account", "bob"],
    ]),
    provenance: { targetChainId: "1", moduleHash: "mh" },
    source: "0",
  },
};

describe("defpact state JSON", () => {
  it("writes the reference's field order, with an executed:null compatibility field", () => {
    assert.equal(
      encodeDefPactExec(PLAIN),
      '{"executed":null,"pactId":"pid","stepHasRollback":true,"step":0,"yield":null,"continuation":{"args":["x",{"int":1}],"def":"m.p"},"stepCount":2}',
    );
  });

  it("writes a cross-chain yield with its provenance and source chain", () => {
    assert.equal(
      encodeDefPactExec(CROSS_CHAIN),
      '{"executed":null,"pactId":"pid","stepHasRollback":false,"step":0,"yield":{"data":{"amount":1.5,"account":"bob"},"provenance":{"targetChainId":"1","moduleHash":"mh"},"source":"0"},"continuation":{"args":["x",{"int":1}],"def":"m.p"},"stepCount":2}',
    );
  });

  it("writes nested defpacts first, without stepHasRollback", () => {
    const exec: DefPactExec = {
      ...PLAIN,
      nested: new Map([
        [
          "child",
          {
            stepCount: 2,
            yield: null,
            step: 0,
            pactId: "child",
            continuation: { def: "c.q", args: [] },
            nested: new Map(),
          },
        ],
      ]),
    };
    assert.equal(
      encodeDefPactExec(exec),
      '{"nested":{"child":{"executed":null,"pactId":"child","step":0,"yield":null,"continuation":{"args":[],"def":"c.q"},"stepCount":2}},"executed":null,"pactId":"pid","stepHasRollback":true,"step":0,"yield":null,"continuation":{"args":["x",{"int":1}],"def":"m.p"},"stepCount":2}',
    );
    assert.deepEqual(decodeDefPactExec(encodeDefPactExec(exec)), exec);
  });

  it("reads back what it writes", () => {
    assert.deepEqual(decodeDefPactExec(encodeDefPactExec(PLAIN)), PLAIN);
    const back = decodeDefPactExec(encodeDefPactExec(CROSS_CHAIN));
    assert.equal(encodeDefPactExec(back), encodeDefPactExec(CROSS_CHAIN));
    assert.deepEqual(back.yield?.provenance, { targetChainId: "1", moduleHash: "mh" });
  });

  it("keeps a yielded object that looks like a keyset an object field by field", () => {
    const text =
      '{"executed":null,"pactId":"p","stepHasRollback":false,"step":0,"yield":{"data":{"keys":["k"]},"provenance":null},"continuation":{"args":[],"def":"m.p"},"stepCount":2}';
    const data = decodeDefPactExec(text).yield?.data;
    assert.deepEqual(data, new Map([["keys", ["k"]]]));
  });

  it("names the bad field of malformed state", () => {
    assert.throws(
      () => decodeDefPactExec('{"pactId":"p","step":0,"stepCount":2}'),
      /defpact state: continuation is not an object/,
    );
    assert.throws(
      () =>
        decodeDefPactExec(
          '{"pactId":"p","step":0.5,"stepCount":1,"continuation":{"args":[],"def":"m.p"},"stepHasRollback":false}',
        ),
      /defpact state: step is not an integer/,
    );
  });
});

describe("nestedPactId", () => {
  it("hashes the parent id and the continuation (a reference vector)", () => {
    assert.equal(
      encodeContinuation({ def: "nested1.bad3", args: [] }),
      '{"args":[],"def":"nested1.bad3"}',
    );
    // From Pact 5's nested-defpacts.repl: the parent runs under the default transaction hash.
    assert.equal(
      nestedPactId("DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g", {
        def: "nested1.bad3",
        args: [],
      }),
      "5I6koMWVHo7UQhUSpFjWBqxHKW5erkEzT9CuAmjbZ6U",
    );
  });
});
