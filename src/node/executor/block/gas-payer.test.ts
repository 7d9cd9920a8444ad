import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ParsedCommand } from "../../../command/index.ts";
import { Decimal, JsonNumber, parseJson } from "../../../pact/values/index.ts";
import { devCommand } from "../../test-support/dev-node.ts";
import { gasPayerOf, withGasPayerData } from "./gas-payer.ts";

const PAYER = {
  name: "free.station.GAS_PAYER",
  args: ["alice", new JsonNumber("1000"), new JsonNumber("0.00000001")],
};

function withSigners(
  command: ParsedCommand,
  clists: ParsedCommand["payload"]["signers"][number]["clist"][],
) {
  const signers = clists.map((clist, i) => ({
    ...command.payload.signers[0]!,
    pubKey: `k${i}`,
    clist,
  }));
  return { ...command, payload: { ...command.payload, signers } };
}

describe("gasPayerOf", () => {
  const base = devCommand({ code: "(+ 1 2)", nonce: "gas-payer" });

  it("finds none when no signer lists GAS_PAYER", () => {
    assert.deepEqual(gasPayerOf(withSigners(base, [[{ name: "coin.GAS", args: [] }], []])), {
      kind: "none",
    });
  });

  it("takes one GAS_PAYER of any module as a token with the signed arguments", () => {
    const found = gasPayerOf(withSigners(base, [[{ name: "coin.GAS", args: [] }, PAYER]]));
    assert.deepEqual(found, {
      kind: "one",
      cap: {
        kind: "cap-token",
        name: "free.station.GAS_PAYER",
        moduleHash: "",
        args: ["alice", Decimal.fromInteger(1000n), Decimal.parseLiteral("0.00000001")],
      },
    });
  });

  it("counts them across signers: two are several, even the same one twice", () => {
    const other = { name: "user.other.GAS_PAYER", args: [] };
    assert.deepEqual(gasPayerOf(withSigners(base, [[PAYER], [other]])), {
      kind: "several",
    });
    assert.deepEqual(gasPayerOf(withSigners(base, [[PAYER], [PAYER]])), {
      kind: "several",
    });
    assert.deepEqual(gasPayerOf(withSigners(base, [[{ name: "m.NOT_GAS_PAYER", args: [] }]])), {
      kind: "none",
    });
  });
});

describe("withGasPayerData", () => {
  it("adds an exec's kind, each top-level form's source and its data to the purchase's", () => {
    const command = devCommand({
      code: '(+ 1 2)\n  (free.m.f\n   "x") ;; done',
      data: '{"k":1}',
      nonce: "exec-data",
    });
    const seen = withGasPayerData(parseJson('{"sender":"s","total":1.5}'), command);
    assert.deepEqual(
      [...seen.keys()],
      ["sender", "total", "tx-type", "exec-code", "exec-user-data"],
    );
    assert.equal(seen.get("tx-type"), "exec");
    assert.deepEqual(seen.get("exec-code"), ["(+ 1 2)", '(free.m.f\n   "x")']);
    assert.deepEqual(seen.get("exec-user-data"), parseJson('{"k":1}'));
  });

  it("shows no forms of code that does not parse", () => {
    const command = devCommand({ code: "(+ 1", nonce: "bad-code" });
    assert.deepEqual(withGasPayerData(null, command).get("exec-code"), []);
  });

  it("describes a continuation by its parts", () => {
    const base = devCommand({ code: "1", nonce: "cont" });
    const command: ParsedCommand = {
      ...base,
      payload: {
        ...base.payload,
        payload: {
          kind: "cont",
          pactId: "pid",
          step: 1,
          rollback: false,
          data: parseJson('{"a":true}'),
          proof: "proof",
        },
      },
    };
    const seen = withGasPayerData(parseJson('{"total":1.5}'), command);
    assert.deepEqual(
      [...seen.entries()].filter(([key]) => key !== "total"),
      [
        ["tx-type", "cont"],
        ["cont-pact-id", "pid"],
        ["cont-step", new JsonNumber("1")],
        ["cont-is-rollback", false],
        ["cont-user-data", parseJson('{"a":true}')],
        ["cont-has-proof", true],
      ],
    );
  });
});
