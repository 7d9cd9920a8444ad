import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PactError } from "../runtime/errors.ts";
import {
  FREE_GAS_MODEL,
  FreeGasMeter,
  LimitedGasMeter,
  milligasToGas,
  PactGasMeter,
  TABLE_GAS_MODEL,
  UNPRICED_STEPS_ALLOWANCE,
  UNPRICED_STEPS_PER_MILLIGAS,
} from "./meter.ts";

function gasError(run: () => void): PactError {
  try {
    run();
  } catch (e) {
    if (e instanceof PactError) return e;
    throw e;
  }
  assert.fail("expected a gas error");
}

describe("PactGasMeter", () => {
  it("counts nothing without a limit, as Pact's free and unlimited models", () => {
    const meter = new FreeGasMeter();
    assert.equal(meter.charging, false);
    meter.charge(500);
    assert.equal(meter.used(), 0);
    assert.equal(meter.model, FREE_GAS_MODEL);
  });

  it("counts under a limit and fails past it with Pact's message", () => {
    const meter = new PactGasMeter(TABLE_GAS_MODEL, 2000);
    meter.charge(1500);
    meter.charge(500); // exactly the limit is allowed
    assert.equal(meter.used(), 2000);
    const e = gasError(() => meter.charge(1));
    assert.equal(e.kind, "gas");
    assert.equal(e.message, 'Gas limit "2" exceeded: 3');
    assert.equal(meter.used(), 2001);
  });

  it("rounds gas up from milligas", () => {
    assert.equal(milligasToGas(0), 0);
    assert.equal(milligasToGas(1), 1);
    assert.equal(milligasToGas(1000), 1);
    assert.equal(milligasToGas(1001), 2);
  });

  it("turns counting on and off with the limit", () => {
    const meter = new PactGasMeter();
    meter.setLimit(10_000);
    assert.equal(meter.charging, true);
    assert.equal(meter.limit, 10_000);
    meter.charge(100);
    meter.setLimit(null);
    meter.charge(100);
    assert.equal(meter.used(), 100);
    assert.equal(meter.limit, null);
  });

  it("counts without a limit when asked to (LimitedGasMeter(null))", () => {
    const meter = new LimitedGasMeter(null);
    meter.charge(1e12);
    assert.equal(meter.used(), 1e12);
    assert.equal(new LimitedGasMeter(5).limit, 5000);
  });

  it("fails a size estimate that would cost more than the gas left", () => {
    const meter = new PactGasMeter(TABLE_GAS_MODEL, 1000);
    meter.checkSize(200); // 200 bytes · 5 = 1000: allowed
    assert.equal(meter.used(), 0);
    assert.equal(gasError(() => meter.checkSize(201)).message, 'Gas limit "1" exceeded: 2');
  });

  it("logs charges once logging starts, and hands the log over", () => {
    const meter = new PactGasMeter(TABLE_GAS_MODEL, 10_000);
    meter.charge(7, "before");
    meter.startLog();
    meter.charge(100, "+");
    meter.charge(30, "GIntegerOpCost");
    assert.deepEqual(meter.takeLog(), [
      { what: "+", milligas: 100 },
      { what: "GIntegerOpCost", milligas: 30 },
    ]);
    assert.deepEqual(meter.takeLog(), []);
  });
});

describe("work gas does not price", () => {
  it("is allowed up to the allowance plus 10 steps per milligas charged, charging nothing", () => {
    const meter = new LimitedGasMeter(1000);
    meter.charge(100_000);
    meter.unpriced(UNPRICED_STEPS_ALLOWANCE + 100_000 * UNPRICED_STEPS_PER_MILLIGAS, "copying");
    assert.equal(meter.used(), 100_000);
    const e = gasError(() => meter.unpriced(1, "copying 1 element"));
    assert.equal(e.kind, "gas");
    assert.equal(
      e.message,
      "Work that gas does not price exceeded: copying 1 element would bring it to 6000001 steps; a command may do 5000000 plus 10 per milligas charged (6000000 so far)",
    );
  });

  it("is not counted without a limit, and starts again with the gas", () => {
    const free = new FreeGasMeter();
    free.unpriced(1e12, "anything");
    const meter = new LimitedGasMeter(1000);
    meter.unpriced(UNPRICED_STEPS_ALLOWANCE, "scanning");
    meter.setUsed(0);
    meter.unpriced(UNPRICED_STEPS_ALLOWANCE, "scanning");
    assert.equal(meter.used(), 0);
  });
});
