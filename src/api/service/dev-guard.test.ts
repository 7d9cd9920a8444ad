/**
 * The development controls' exposure: which hosts are this machine only, and when the controls
 * are off. The refusals over HTTP are in test/hostile/http-dev-controls.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { devControlsClosedReason, isLoopbackHost } from "./dev-guard.ts";

describe("development controls' exposure", () => {
  it("knows loopback addresses and names", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST"]) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (const host of ["0.0.0.0", "::", "192.168.1.2", "example.com", "127.0.0.1.example.com"]) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });

  it("are off beyond loopback unless the flag opens them", () => {
    assert.equal(devControlsClosedReason({ host: "127.0.0.1", openedByFlag: false }), null);
    assert.equal(devControlsClosedReason({ host: "0.0.0.0", openedByFlag: true }), null);
    assert.equal(
      devControlsClosedReason({ host: "0.0.0.0", openedByFlag: false }),
      "the development controls are off: this node listens on 0.0.0.0, beyond this machine; start it with --dev-controls to serve them to everyone who can reach it",
    );
  });
});
