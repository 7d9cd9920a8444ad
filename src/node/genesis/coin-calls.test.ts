import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseProgram } from "../../pact/index.ts";
import {
  buyGasCall,
  coinbaseCall,
  DEV_BLOCK_REWARD,
  pactStringLiteral,
  redeemGasCall,
} from "./coin-calls.ts";

const GUARD = { keys: ["ab"], pred: "keys-all" };

describe("the node's coin calls", () => {
  it("coinbase pays the miner under COINBASE", () => {
    assert.deepEqual(coinbaseCall("miner", GUARD, DEV_BLOCK_REWARD), {
      code: '(coin.coinbase (read-msg "miner") (read-keyset "miner-guard") (read-decimal "reward"))',
      data: { miner: "miner", "miner-guard": GUARD, reward: "1.1522615" },
      grants: ["coin.COINBASE"],
    });
  });

  it("buy-gas and redeem-gas run under GAS", () => {
    assert.deepEqual(buyGasCall("sender00", "0.15"), {
      code: '(coin.buy-gas "sender00" (read-decimal "total"))',
      data: { total: { decimal: "0.15" } },
      grants: ["coin.GAS"],
    });
    assert.deepEqual(buyGasCall("a\rb", "0.15"), {
      code: '(coin.buy-gas (read-msg "sender") (read-decimal "total"))',
      data: { sender: "a\rb", total: { decimal: "0.15" } },
      grants: ["coin.GAS"],
    });
    assert.deepEqual(redeemGasCall("miner", GUARD, "sender00", "0.15", "0.0"), {
      code: '(coin.redeem-gas (read-msg "miner") (read-keyset "miner-guard") (read-msg "sender") (read-decimal "total"))',
      data: {
        miner: "miner",
        "miner-guard": GUARD,
        sender: "sender00",
        total: "0.15",
        fee: "0.0",
      },
      grants: ["coin.GAS"],
    });
  });

  it("writes a sender as a Pact string that reads back as it", () => {
    for (const name of ["sender00", 'a"b', "a\\b", "a\nb", "a\tb", "k:ab", '\\"', ""]) {
      const literal = pactStringLiteral(name);
      assert.notEqual(literal, null, name);
      const parsed = parseProgram(literal!);
      assert.deepEqual(
        parsed.map((t) => [t.kind, "value" in t ? t.value : undefined]),
        [["constant", name]],
        name,
      );
    }
    assert.equal(pactStringLiteral("a\rb"), null);
  });

  it("refuses amounts coin would refuse or misread", () => {
    for (const bad of ["1", "1.", ".5", "-1.0", "0.1234567890123", "1e3", "01.0"]) {
      assert.throws(() => buyGasCall("sender00", bad), RangeError, bad);
    }
  });
});
