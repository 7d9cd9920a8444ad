import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FreeGasMeter, PactGasMeter, TABLE_GAS_MODEL } from "./meter.ts";
import {
  CHAIN_MODULE_REPRESENTATION,
  chargeMergeDependencies,
  chargeModuleDesugar,
  chargeModuleHash,
  chargeModuleLoad,
  chargeModuleWrite,
  chargeTransitiveDependencies,
  REPL_MODULE_REPRESENTATION,
} from "./modules.ts";

/** The milligas `charge` costs under the table model. */
function cost(charge: (meter: PactGasMeter) => void): number {
  const meter = new PactGasMeter(TABLE_GAS_MODEL, 1e12);
  charge(meter);
  return meter.used();
}

describe("module charges", () => {
  it("price bytes as Pact's table model does", () => {
    assert.equal(
      cost((m) => chargeModuleDesugar(m, 138)),
      400 * 138,
    );
    assert.equal(
      cost((m) => chargeModuleHash(m, 138)),
      100 * 138,
    );
    assert.equal(
      cost((m) => chargeModuleWrite(m, 269)),
      200 * 269,
    );
    assert.equal(
      cost((m) => chargeTransitiveDependencies(m, 205)),
      205,
    );
    // bytes / 200 + 10; 10 per pair merged
    assert.equal(
      cost((m) => chargeModuleLoad(m, 1399)),
      6 + 10,
    );
    assert.equal(
      cost((m) => chargeMergeDependencies(m, 3, 4)),
      10 * 3 * 4,
    );
  });

  it("cost nothing without a limit", () => {
    const meter = new FreeGasMeter();
    chargeModuleDesugar(meter, 1000);
    chargeModuleLoad(meter, 1000);
    assert.equal(meter.used(), 0);
  });
});

describe("module representations", () => {
  it("Chainweb stores a line number per node, the REPL a file and a span", () => {
    assert.equal(CHAIN_MODULE_REPRESENTATION.infoBytes, 5);
    assert.equal(CHAIN_MODULE_REPRESENTATION.encodedInfoBytes("t.pact"), 2);
    assert.equal(REPL_MODULE_REPRESENTATION.infoBytes, 21);
    // two array heads and four numbers (8), the name with its 1-byte head below 24 bytes, 2 above
    assert.equal(REPL_MODULE_REPRESENTATION.encodedInfoBytes("setup.repl"), 8 + 1 + 10);
    assert.equal(REPL_MODULE_REPRESENTATION.encodedInfoBytes("x".repeat(30)), 8 + 2 + 30);
  });
});
