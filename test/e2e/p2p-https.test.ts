/**
 * Two nodes over HTTPS (`p2pCertificate`, `p2pKey`: chainweb-node's certificate options): each
 * serves its API and the P2P API over TLS with a certificate of its own, signed by a private
 * certificate authority made here by openssl with the commands of docs/network.md, trusted by
 * both processes (NODE_EXTRA_CA_CERTS, as a development CA would be); the follower syncs the
 * first node's blocks over HTTPS, and each names the other with its certificate's fingerprint as
 * its id, as chainweb-node's peers do: the follower its configured peer too, once it answered.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Agent, fetch } from "undici";
import { certificateFingerprint } from "../../src/p2p/certificate.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

const CHAINS = Array.from({ length: 20 }, (_, c) => c);
const SYNC_MS = 15_000;
/** An EC P-256 key made with the certificate (no passphrase). */
const NEW_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

describe("nodes over HTTPS", { timeout: 60_000 }, () => {
  let dir: string;
  let first: NodeProcess;
  let follower: NodeProcess;
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
  /** A node's key and certificate for 127.0.0.1, signed by the CA (docs/network.md). */
  const nodeCertificate = (name: string) => {
    openssl(
      ...["req", "-x509", ...NEW_KEY, "-days", "2", "-subj", "/CN=127.0.0.1"],
      ...["-addext", "subjectAltName=IP:127.0.0.1", "-addext", "basicConstraints=CA:FALSE"],
      ...["-CA", file("ca.pem"), "-CAkey", file("ca-key.pem")],
      ...["-keyout", file(`${name}-key.pem`), "-out", file(`${name}.pem`)],
    );
    return ["--p2p-certificate", file(`${name}.pem`), "--p2p-key", file(`${name}-key.pem`)];
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "braid-https-"));
    openssl(
      ...["req", "-x509", ...NEW_KEY, "-days", "2", "-subj", "/CN=Braid test CA"],
      ...["-keyout", file("ca-key.pem"), "-out", file("ca.pem")],
    );
    const launcher = ["env", `NODE_EXTRA_CA_CERTS=${file("ca.pem")}`];
    first = await startNode({ launcher, args: ["--dev-controls", ...nodeCertificate("first")] });
    const port = new URL(first.url).port;
    follower = await startNode({
      launcher,
      args: ["--mining", "none", "--peer", `127.0.0.1:${port}`, ...nodeCertificate("follower")],
    });
  });
  after(async () => {
    await Promise.all([first?.stop(), follower?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves its API over HTTPS", () => {
    assert.match(first.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(follower.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it("the follower syncs the first node's blocks over HTTPS, and each names the other by fingerprint", async () => {
    // The test process trusts the certificate per request (an agent with it as the CA).
    const dispatcher = new Agent({ connect: { ca: readFileSync(file("ca.pem")) } });
    const get = async (url: string) => (await fetch(url, { dispatcher })).text();
    const post = async (url: string, body: unknown) =>
      (
        await fetch(url, {
          dispatcher,
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).text();
    await post(`${first.url}/braid/dev/mine`, { blocks: 3, chains: CHAINS });
    const cut = (node: NodeProcess) => get(`${node.url}/chainweb/0.0/development/cut`);
    const deadline = Date.now() + SYNC_MS;
    const theirs = JSON.parse(await cut(first)).hashes;
    while (JSON.stringify(JSON.parse(await cut(follower)).hashes) !== JSON.stringify(theirs)) {
      assert.ok(Date.now() < deadline, "the follower synced within the bound");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const idOf = (name: string) =>
      certificateFingerprint(readFileSync(file(`${name}.pem`), "utf8"));
    const peersOf = async (node: NodeProcess) =>
      JSON.parse(await get(`${node.url}/chainweb/0.0/development/cut/peer`)).items;
    const address = (node: NodeProcess) => ({
      hostname: "127.0.0.1",
      port: Number(new URL(node.url).port),
    });
    assert.deepEqual(await peersOf(first), [{ id: idOf("follower"), address: address(follower) }]);
    // Configured by address alone, the first node is named by the certificate it answered with.
    assert.deepEqual(await peersOf(follower), [{ id: idOf("first"), address: address(first) }]);
  });
});
