/**
 * Peer objects and addresses as peers and the configuration give them: read when well formed,
 * refused with the exact reason otherwise.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodePeerInfo, encodePeerInfo, parsePeerAddress, peerKey } from "./peer-info.ts";

const FINGERPRINT = "uP-pHW4QKrV9fN1mlDGwKuaiIDlJW7xYSj1nW53EHM4";

describe("a peer address (host:port)", () => {
  it("reads a host name, an IPv4 address and a bracketed IPv6 address", () => {
    assert.deepEqual(parsePeerAddress("node-1.example.org:1789"), {
      hostname: "node-1.example.org",
      port: 1789,
    });
    assert.deepEqual(parsePeerAddress(" 10.0.0.2:443 "), { hostname: "10.0.0.2", port: 443 });
    assert.deepEqual(parsePeerAddress("[fd00::1]:8080"), { hostname: "fd00::1", port: 8080 });
  });

  it("is keyed host:port, an IPv6 address in brackets", () => {
    assert.equal(peerKey({ hostname: "10.0.0.2", port: 443 }), "10.0.0.2:443");
    assert.equal(peerKey({ hostname: "fd00::1", port: 8080 }), "[fd00::1]:8080");
  });

  it("refuses what is not host:port, a bad host and a port out of range", () => {
    const cases: [string, string][] = [
      ["10.0.0.2", '"10.0.0.2" is not host:port'],
      ["10.0.0.2:", '"10.0.0.2:" is not host:port'],
      [":1789", '":1789" is not host:port'],
      ["fd00::1:8080", '"fd00::1:8080" is not host:port'],
      ["host:123456", '"host:123456" is not host:port'],
      ["ho st:1789", '"ho st" is not a host name or IP address'],
      ["h\u00e9:1789", '"h\u00e9" is not a host name or IP address'],
      [`${"a".repeat(254)}:1789`, `"${"a".repeat(80)}" is not a host name or IP address`],
      ["host:0", "the port 0 is not between 1 and 65535"],
      ["host:65536", "the port 65536 is not between 1 and 65535"],
    ];
    for (const [text, reason] of cases) assert.equal(parsePeerAddress(text), reason, text);
  });
});

describe("a peer object", () => {
  it("reads a null id or a certificate fingerprint, and writes the API's key order", () => {
    const peer = { address: { port: 1789, hostname: "10.0.0.2" }, id: null };
    assert.deepEqual(decodePeerInfo(peer), {
      id: null,
      address: { hostname: "10.0.0.2", port: 1789 },
    });
    assert.deepEqual(decodePeerInfo({ ...peer, id: undefined }), {
      id: null,
      address: { hostname: "10.0.0.2", port: 1789 },
    });
    const withId = decodePeerInfo({ ...peer, id: FINGERPRINT });
    assert.ok(typeof withId !== "string");
    assert.equal(withId.id, FINGERPRINT);
    assert.equal(
      JSON.stringify(encodePeerInfo(withId)),
      `{"id":"${FINGERPRINT}","address":{"hostname":"10.0.0.2","port":1789}}`,
    );
  });

  it("refuses anything else with the exact reason", () => {
    const address = { hostname: "10.0.0.2", port: 1789 };
    const notObject = 'a peer must be an object {"id": …, "address": {"hostname": …, "port": …}}';
    const cases: [string, unknown, string][] = [
      ["null", null, notObject],
      ["an array", [], notObject],
      ["a string", "10.0.0.2:1789", notObject],
      [
        "a short id",
        { id: "abc", address },
        '"id" must be null or a base64url SHA-256 fingerprint (43 characters)',
      ],
      [
        "a number id",
        { id: 7, address },
        '"id" must be null or a base64url SHA-256 fingerprint (43 characters)',
      ],
      ["no address", { id: null }, '"address" must be an object {"hostname": …, "port": …}'],
      [
        "a text address",
        { id: null, address: "10.0.0.2:1789" },
        '"address" must be an object {"hostname": …, "port": …}',
      ],
      ["no hostname", { id: null, address: { port: 1789 } }, '"address.hostname" must be a string'],
      [
        "a text port",
        { id: null, address: { hostname: "10.0.0.2", port: "1789" } },
        '"address.port" must be a number',
      ],
      [
        "a port out of range",
        { id: null, address: { hostname: "10.0.0.2", port: 70000 } },
        "the port 70000 is not between 1 and 65535",
      ],
      [
        "a fractional port",
        { id: null, address: { hostname: "10.0.0.2", port: 1.5 } },
        "the port 1.5 is not between 1 and 65535",
      ],
      [
        "a bad hostname",
        { id: null, address: { hostname: "a/b", port: 1789 } },
        '"a/b" is not a host name or IP address',
      ],
      [
        "an empty hostname",
        { id: null, address: { hostname: "", port: 1789 } },
        '"" is not a host name or IP address',
      ],
    ];
    for (const [what, value, reason] of cases) assert.equal(decodePeerInfo(value), reason, what);
  });
});
