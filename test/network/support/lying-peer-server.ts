/**
 * A lying peer, a process of its own inside a host of a test network (`lying-peer-process.ts`
 * starts it: `lying-peer-server.ts MODE ADDRESS PORT VICTIM_URL`). It builds the branch of MODE
 * (`lying-peer.ts`: a lie, or an honest branch for a peer that answers without end) and serves it
 * on ADDRESS:PORT through the part of Chainweb's P2P API a Braid node calls: `GET`/`PUT /cut`,
 * `GET`/`PUT /cut/peer`, `POST header/branch`, `POST payload/batch`, and `POST
 * mempool/getPending` (an empty mempool: the victim pulls its peers' mempools every 500 ms, and a
 * refusal to answer is a failure of its own the victim would log). In an endless MODE the answer
 * it names (`header/branch` or `payload/batch`) is a JSON text that never ends, written as fast
 * as the victim reads it until the victim closes the connection.
 *
 * The first time it is asked for its branch (the victim polled its cut and is syncing it), it
 * first gossips that cut to VICTIM_URL (`PUT /cut`, itself as the origin): the victim is offered
 * the same lie twice, and must refuse it once.
 *
 * It reports to the test on stdout, one JSON line each (`LiarReport`): ready, every request, the
 * gossip's status, and the bytes of each endless answer once the victim closed it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { encodeCutHashes } from "../../../src/chain/cut/cut.ts";
import { encodeHeaderBase64 } from "../../../src/chain/header/json.ts";
import { encodePayloadDataObject } from "../../../src/chain/payload/json.ts";
import { encodeBase64Url } from "../../../src/crypto/index.ts";
import {
  blockOnEachChain,
  ENDLESS,
  type Endless,
  LIES,
  type Lie,
  lyingBranch,
} from "./lying-peer.ts";
import type { LiarReport } from "./lying-peer-process.ts";

const NETWORK = "development";
const BASE = `/chainweb/0.0/${NETWORK}`;
const b64 = encodeBase64Url;
/** A mempool's answer when it holds nothing (Chainweb's `getPending`). */
const EMPTY_MEMPOOL = { hashes: [], highwaterMark: [0, 0] };

const [mode, address, portText, victimUrl] = process.argv.slice(2);
const lie = LIES.includes(mode as Lie) ? (mode as Lie) : undefined;
const endless = ENDLESS.includes(mode as Endless) ? (mode as Endless) : undefined;
if ((lie ?? endless) === undefined || address === undefined || victimUrl === undefined) {
  const modes = [...LIES, ...ENDLESS].join("|");
  throw new Error(`usage: lying-peer-server.ts (${modes}) ADDRESS PORT VICTIM_URL`);
}
const port = Number(portText);

function report(line: LiarReport): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const lying = lie === undefined ? undefined : lyingBranch(lie);
const branch = lying ?? blockOnEachChain();
const headers = new Map(branch.blocks.map((b) => [b64(b.header.hash), b.header]));
const payloads = new Map(branch.blocks.map((b) => [b64(b.header.payloadHash), b.payload]));
const cutJson = (origin: boolean) =>
  encodeCutHashes(
    branch.cut,
    NETWORK,
    origin ? { id: null, address: { hostname: address, port } } : null,
  );

let gossip: Promise<void> | undefined;

async function gossipCut(): Promise<void> {
  try {
    const response = await fetch(`${victimUrl}${BASE}/cut`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: cutJson(true),
    });
    await response.arrayBuffer();
    report({ gossip: response.status });
  } catch (e) {
    report({ gossip: String(e) });
  }
}

async function answer(request: IncomingMessage, response: ServerResponse, body: string) {
  const path = (request.url ?? "").split("?")[0]!;
  report({ request: `${request.method} ${path}` });
  const send = (status: number, json?: unknown) => {
    if (json === undefined) {
      response.writeHead(status).end();
      return;
    }
    const out = typeof json === "string" ? json : JSON.stringify(json);
    response.writeHead(status, { "content-type": "application/json" }).end(out);
  };
  const route = `${request.method} ${path.startsWith(BASE) ? path.slice(BASE.length) : path}`;
  if (route === "GET /cut") return send(200, cutJson(false));
  if (route === "PUT /cut" || route === "PUT /cut/peer") return send(204);
  if (route === "GET /cut/peer") return send(200, { limit: 0, items: [], next: null });
  const chainRoute =
    /^POST \/chain\/(\d+)\/(header\/branch|payload\/batch|mempool\/getPending)$/.exec(route);
  if (chainRoute?.[2] === "mempool/getPending") return send(200, EMPTY_MEMPOOL);
  if (chainRoute?.[2] === "header/branch") {
    gossip ??= gossipCut();
    await gossip;
    if (endless === "endless-branch") return sendEndless(response, '{"limit":360,"items":["');
    const { lower, upper } = JSON.parse(body) as { lower: string[]; upper: string[] };
    const stop = new Set(lower);
    const items: string[] = [];
    for (const top of upper) {
      let at = headers.get(top);
      while (at !== undefined && !stop.has(b64(at.hash))) {
        items.push(encodeHeaderBase64(at));
        at = headers.get(b64(at.parent));
      }
    }
    return send(200, { limit: items.length, items: items.reverse(), next: null });
  }
  if (chainRoute?.[2] === "payload/batch") {
    if (endless === "endless-payloads") return sendEndless(response, '[{"transactions":["');
    const wanted = JSON.parse(body) as string[];
    const found = wanted.flatMap((h) => {
      const payload = payloads.get(h);
      return payload === undefined ? [] : [encodePayloadDataObject(payload)];
    });
    return send(200, found);
  }
  response.writeHead(404, { "content-type": "text/plain" }).end("not served by the liar");
}

/** Answers with `opening` and then letters without end, as fast as they are read; reports the bytes. */
function sendEndless(response: ServerResponse, opening: string): void {
  const chunk = Buffer.alloc(1 << 16, "A");
  let bytes = opening.length;
  response.writeHead(200, { "content-type": "application/json" });
  response.write(opening);
  const more = () => {
    while (!response.destroyed) {
      bytes += chunk.length;
      if (!response.write(chunk)) return;
    }
  };
  response.on("drain", more);
  response.on("close", () => report({ endless: bytes }));
  more();
}

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (c: Buffer) => chunks.push(c));
  request.on("end", () => {
    answer(request, response, Buffer.concat(chunks).toString("utf8")).catch((e: unknown) => {
      response.writeHead(500).end(String(e));
    });
  });
}).listen(port, address, () => {
  const ref = (header: { hash: Uint8Array; chainId: number; height: number }) => ({
    hash: b64(header.hash),
    chainId: header.chainId,
    height: header.height,
  });
  const key = `${address}:${port}`;
  const blocks = branch.blocks.map((b) => ref(b.header));
  report({
    ready:
      lying === undefined
        ? { key, blocks }
        : { key, blocks, lying: ref(lying.lying), code: lying.code, reason: lying.reason },
  });
});
