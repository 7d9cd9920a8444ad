import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CapToken } from "../values/types.ts";
import { CapState } from "./caps.ts";

const token = (name: string, ...args: bigint[]): CapToken => ({
  kind: "cap-token",
  name,
  moduleHash: "h",
  args,
});

describe("CapState", () => {
  it("finds granted capabilities on the stack and composed into them, by value", () => {
    const caps = new CapState();
    caps.slots.push({ cap: token("m.A", 1n), composed: [token("m.B")] });
    assert.equal(caps.isGranted(token("m.A", 1n)), true);
    assert.equal(caps.isGranted(token("m.B")), true);
    assert.equal(caps.isGranted(token("m.A", 2n)), false);
  });

  it("counts a scoped signature only for its capabilities, preferring those being evaluated", () => {
    const caps = new CapState();
    const scope = [token("m.PAY", 10n)];
    assert.equal(caps.signatureApplies(scope), false);
    caps.slots.push({ cap: token("m.PAY", 10n), composed: [] });
    assert.equal(caps.signatureApplies(scope), true);
    caps.beingEvaluated = [token("m.OTHER")];
    assert.equal(caps.signatureApplies(scope), false);
    caps.beingEvaluated = [token("m.PAY", 10n)];
    assert.equal(caps.signatureApplies(scope), true);
  });

  it("counts an unscoped signature until code installs a capability", () => {
    const caps = new CapState();
    assert.equal(caps.signatureApplies([]), true);
    caps.autonomous.push(token("m.ONCE"));
    assert.equal(caps.signatureApplies([]), false);
  });

  it("snapshots independently of later changes", () => {
    const caps = new CapState();
    caps.slots.push({ cap: token("m.A"), composed: [] });
    const copy = caps.snapshot();
    caps.slots[0]!.composed.push(token("m.B"));
    caps.autonomous.push(token("m.C"));
    assert.equal(copy.isGranted(token("m.B")), false);
    assert.deepEqual(copy.autonomous, []);
  });
});
