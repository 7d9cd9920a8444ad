/**
 * Conformance to Chainweb's published OpenAPI 3.0 documents (`chainweb.openapi.yaml`,
 * `pact.openapi.yaml`, read at test time from `../shared/reference/openapi/` beside the
 * repository; test data, never copied here; the test is skipped where they are missing, except on
 * CI).
 *
 * A real `braid node` (on-demand mining) is given blocks and transactions with `@kadena/client`:
 * a transfer, a failing transfer and a cross-chain transfer with both its steps, so that poll,
 * listen, SPV and payload outputs exist. A second node in `pow` mode serves the mining API, and a
 * third that mines nothing (`--mining none`) the mempool P2P API with a transfer pending. Then
 * every operation of both documents (every path and method, listed from the documents) is either
 * called with valid requests, its status, content type, documented headers and body checked
 * against the documented response with ajv, or named in {@link NOT_SERVED} with the reason.
 * Documented error responses are exercised where cheap (unknown keys 404, branch bounds 400,
 * `Accept` 406, bad bodies 400). Every chain-scoped operation is also asked for an unknown chain
 * (404 text/plain, docs/node.md: the documents' 404 bodies are for unknown keys, and chainweb-node
 * has no route for an unknown chain), every operation not served must answer 404, and the Pact
 * operations are run again on the interface spec's `contract/api/v1` paths.
 *
 * Where a document is wrong, {@link DOCUMENT_EXCEPTIONS} names the spot and the reason and relaxes
 * exactly that spot; nothing else is relaxed.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { Pact } from "@kadena/client";
import { mineNonce } from "../../src/chain/mining/mine.ts";
import { word256FromBytes } from "../../src/chain/word256.ts";
import { signCommand } from "../../src/command/index.ts";
import { blake2b256, decodeHex, encodeBase64Url } from "../../src/crypto/index.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import {
  clientFor,
  crossChainTransferCommand,
  NETWORK,
  SENDER00,
  SENDER01,
  signWith,
} from "./support/kadena.ts";
import {
  checkRequestBody,
  checkResponse,
  DOCUMENTS_DIR,
  type DocumentException,
  type DocumentName,
  documentsSkip,
  type LoadedDocument,
  loadDocuments,
  type Operation,
  operationKey,
  operationUrl,
  parseEventStream,
} from "./support/openapi.ts";
import { type RawResponse, rawRequest, readResponse } from "./support/raw-http.ts";

// ---------------------------------------------------------------------------------------------
// Where the documents are wrong (checked against chainweb-node and Pact 5)
//
// Known defects that need no exception here: the documents fail strict OpenAPI meta-validation
// (`description` inside the /cut/peer PUT 400 media type, `type` inside the pact /local 400 media
// type; only `schema` is read here), and Pact 5 writes `logs: null` for some failures, which is
// not relaxed: Braid's intended behaviour is a string always (see DEFECTS).

const DOCUMENT_EXCEPTIONS: readonly DocumentException[] = [
  {
    document: "chainweb",
    pointer: "#/components/schemas/peer/properties/address/properties/hostname",
    says: { oneOf: [{ format: "hostname" }, { format: "ipv4" }, { format: "ipv6" }] },
    use: {
      merge: {
        oneOf: [{ anyOf: [{ format: "hostname" }, { format: "ipv4" }, { format: "ipv6" }] }],
      },
    },
    where: "a peer's address.hostname (GET/PUT /cut/peer, a cut's origin)",
    reason:
      "oneOf asks for exactly one of the formats, but a dotted quad such as 127.0.0.1 is both a valid host name and an IPv4 address, so no IPv4 peer (what chainweb-node's peers are) could be written; any one of them is meant",
  },
  {
    document: "chainweb",
    pointer: "#/components/schemas/hostAddress",
    says: { pattern: "^\\d{4}.\\d{4}.\\d{4}.\\d{4}:\\d+$" },
    use: { merge: { pattern: "^\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}:\\d+$" } },
    where: "the x-peer-addr response header of every chainweb operation",
    reason:
      "the pattern asks for exactly four digits per part of the IPv4 address (the document's own example 10.36.1.3:42988 fails it); chainweb-node writes the dotted quad as is, e.g. 127.0.0.1:51234",
  },
  {
    document: "chainweb",
    pointer:
      "#/paths/~1block~1updates/get/responses/200/content/text~1event-stream/schema/items/properties/event",
    says: { enum: ["Block"] },
    use: { merge: { enum: ["BlockHeader"] } },
    where: "GET /block/updates, the event name",
    reason:
      "chainweb-node names the events of both /header/updates and /block/updates `BlockHeader` (shared/reference/openapi/README.md)",
  },
  {
    document: "chainweb",
    pointer: "#/paths/~1mining~1work/servers/0",
    says: { url: "{schema}://{domain}:{port}/chainweb/{chainwebVersion}/{apiVersion}" },
    use: { merge: { url: "{schema}://{domain}:{port}/chainweb/{apiVersion}/{chainwebVersion}" } },
    where: "GET /mining/work, its server URL",
    reason:
      "the API version and the network are swapped; chainweb-node serves /chainweb/0.0/<network>/mining/work like every other route",
  },
  {
    document: "chainweb",
    pointer: "#/paths/~1mining~1updates/servers/0",
    says: { url: "{schema}://{domain}:{port}/chainweb/{chainwebVersion}/{apiVersion}" },
    use: { merge: { url: "{schema}://{domain}:{port}/chainweb/{apiVersion}/{chainwebVersion}" } },
    where: "GET /mining/updates, its server URL",
    reason: "as for /mining/work: the API version and the network are swapped",
  },
  {
    document: "chainweb",
    pointer: "#/paths",
    says: {},
    use: { renameKey: { from: "/chainweb/0.0/mainnet01/mining/solved", to: "/mining/solved" } },
    where: "POST /chainweb/0.0/mainnet01/mining/solved, its path",
    reason:
      "the path repeats the server's /chainweb/{apiVersion}/{chainwebVersion} prefix, with mainnet01 written in; chainweb-node serves /chainweb/0.0/<network>/mining/solved",
  },
  {
    document: "chainweb",
    pointer: "#/paths/~1mining~1solved/servers/0",
    says: { url: "{schema}://{domain}:{port}/chainweb/{chainwebVersion}/{apiVersion}" },
    use: { merge: { url: "{schema}://{domain}:{port}/chainweb/{apiVersion}/{chainwebVersion}" } },
    where: "POST …/mining/solved, its server URL",
    reason: "as for /mining/work: the API version and the network are swapped",
  },
  {
    document: "chainweb",
    pointer: "#/components/schemas/payloadBatchBody",
    says: { title: "Payload batch query" },
    use: { merge: { type: "object" } },
    where: "POST …/payload/batch and …/payload/outputs/batch, the request body",
    reason:
      "the body is `oneOf` an array of hashes and this object schema, which has no `type`, so an array matches both branches and the documented array form fails `oneOf`; chainweb-node reads the object form as an object",
  },
  {
    document: "pact",
    pointer: "#/components/schemas/event/properties/module/properties/namespace",
    says: { type: "string" },
    use: { merge: { nullable: true } },
    where: "events[].module.namespace of command results (poll, listen, local)",
    reason:
      "Pact 5 writes null for a module in the root namespace (coin.TRANSFER's module is coin)",
  },
  {
    document: "pact",
    pointer: "#/components/schemas/command-result/properties/txId",
    says: { type: "number" },
    use: { merge: { nullable: true } },
    where: "txId of failed command results (local, poll, listen)",
    reason:
      "Pact 5 on Chainweb has no transaction id for a failed command and writes null (chainweb-node sets _crTxId = Nothing when the payload fails)",
  },
  {
    document: "pact",
    pointer: "#/components/schemas/command-result/properties/continuation/properties/executed",
    says: { type: "boolean" },
    use: { merge: { nullable: true } },
    where: "continuation.executed of command results",
    reason:
      "Pact 5 writes null (the field is for private pacts, which Chainweb does not run), e.g. in a cross-chain transfer's first step",
  },
];

// ---------------------------------------------------------------------------------------------
// Operations the node does not serve

const NOT_SERVED: Readonly<Record<string, string>> = {
  [operationKey("chainweb", "post", "/make-backup")]:
    "chainweb-node's RocksDB/Pact database backup jobs (opt-in, `backup.api.enabled`); Braid's storage is SQLite with its own crash safety and has no backup API",
  [operationKey("chainweb", "get", "/check-backup/{backupId}")]:
    "the status of a /make-backup job; not served, as /make-backup",
};

// ---------------------------------------------------------------------------------------------
// What the tests share

/** Everything the calls need from the setup. */
interface State {
  main: NodeProcess;
  pow: NodeProcess;
  /** A node that mines nothing (`--mining none`), so that a command stays in its mempool. */
  idle: NodeProcess;
  /** A transfer pending on the idle node's chain 0. */
  pendingKey: string;
  /** sender00 → sender01 on chain 0, and its block. */
  transferKey: string;
  block: { hash: string; height: number; payloadHash: string };
  /** A transfer of more than sender00 has: a failure result. */
  failedKey: string;
  /** A cross-chain transfer 0 → 1: its first step, its proof, its second step. */
  xchainKey: string;
  contKey: string;
  /**
   * A stand-in peer (it answers `GET /cut/peer` with an empty page), and a port nothing
   * listens on: what `PUT /cut/peer` and a cut's origin name.
   */
  peer: { port: number; closedPort: number; close(): Promise<void> };
  /** Chain 0: the genesis hash, the head when the setup ended, the cursor of `?limit=1`. */
  genesis: string;
  head: string;
  next: string;
}

/** A well-formed hash no block or payload has. */
const UNKNOWN_HASH = "A".repeat(43);
/** 33 distinct well-formed hashes: one more than a branch query takes per side. */
const TOO_MANY_BOUNDS = Array.from({ length: 33 }, (_, i) =>
  encodeBase64Url(blake2b256(new TextEncoder().encode(`bound ${i}`))),
);
const OBJECT_HEADERS = "application/json;blockheader-encoding=object";
/** A chain id the network does not have (0 to 19). */
const UNKNOWN_CHAIN = 20;

interface Request {
  /** Path parameters and server variables; `chain` and `chainId` default to 0. */
  readonly params?: Readonly<Record<string, string | number>>;
  readonly query?: Readonly<Record<string, string | number | boolean>>;
  readonly accept?: string;
  readonly body?: unknown;
  readonly contentType?: string;
}

interface Call {
  readonly name: string;
  /** Which node serves it (default: the on-demand node). */
  readonly node?: "main" | "pow" | "idle";
  readonly request?: (s: State) => Request | Promise<Request>;
  readonly status: number;
  /** A stream: read until this many events arrived; `trigger` runs once it is open. */
  readonly stream?: { readonly events: number; readonly trigger?: (s: State) => Promise<unknown> };
  /** A response to try again after (at most 10 times). */
  readonly retry?: (response: RawResponse) => boolean;
  /** More checks on the parsed body. */
  readonly check?: (body: unknown, s: State) => void;
}

let nonceCount = 0;
const nonce = (what: string) => `openapi ${what} ${Date.now()} ${nonceCount++}`;

function transfer(amount: string) {
  return signWith(
    SENDER00,
    Pact.builder
      .execution(`(coin.transfer "sender00" "sender01" ${amount})`)
      .addSigner(SENDER00.publicKey, (withCap) => [
        withCap("coin.GAS"),
        withCap("coin.TRANSFER", "sender00", "sender01", { decimal: amount }),
      ])
      .setMeta({ chainId: "0", senderAccount: "sender00" })
      .setNetworkId(NETWORK)
      .setNonce(nonce(`transfer ${amount}`))
      .createTransaction(),
  );
}

function readCommand(code: string, signed = false) {
  const builder = Pact.builder
    .execution(code)
    .setMeta({ chainId: "0", senderAccount: "sender00" })
    .setNetworkId(NETWORK)
    .setNonce(nonce("read"));
  if (!signed) return Promise.resolve(builder.createTransaction());
  return signWith(
    SENDER00,
    builder.addSigner(SENDER00.publicKey, (withCap) => [withCap("coin.GAS")]).createTransaction(),
  );
}

/** A `private` command: private metadata (an address), signed by sender00 (the node's entity). */
function privateCommand() {
  const cmd = JSON.stringify({
    payload: { exec: { code: "(+ 1 2)", data: null } },
    meta: { address: { from: "Alice", to: ["Bob"] } },
    signers: [{ pubKey: SENDER00.publicKey }],
    networkId: NETWORK,
    nonce: nonce("private"),
  });
  const key = {
    publicKey: decodeHex(SENDER00.publicKey),
    secretKey: decodeHex(SENDER00.secretKey),
  };
  return signCommand(cmd, [key], "blake2b");
}

const keysOf = (body: unknown) => Object.keys(body as Record<string, unknown>);
const items = (body: unknown) => (body as { items: unknown[] }).items;

/** The 286 header bytes of mining work with a winning nonce, from the pow node. */
async function solvedWork(s: State): Promise<Uint8Array> {
  const response = await rawRequest({
    method: "GET",
    url: `${s.pow.url}/chainweb/0.0/${NETWORK}/mining/work`,
  });
  assert.equal(response.status, 200, response.body.toString());
  const work = new Uint8Array(response.body);
  const header = work.slice(36);
  const found = mineNonce(header, word256FromBytes(work, 4), 0n, 50_000_000);
  assert.ok(found !== undefined, "no nonce found");
  return header;
}

/** The on-demand node's cut, as `GET /cut` answers it. */
async function ownCut(s: State): Promise<object> {
  const cut = await rawRequest({ method: "GET", url: `${s.main.url}/chainweb/0.0/${NETWORK}/cut` });
  return JSON.parse(cut.body.toString("utf8")) as object;
}

/** The idle node's high-water mark of chain 0, its integers as written (the nonce has 64 bits). */
async function idleMark(s: State): Promise<{ nonce: string; since: string }> {
  const response = await rawRequest({
    method: "POST",
    url: `${s.idle.url}/chainweb/0.0/${NETWORK}/chain/0/mempool/getPending`,
  });
  const text = response.body.toString("utf8");
  const mark = /"highwaterMark":\[(-?[0-9]+),([0-9]+)\]/.exec(text);
  assert.ok(mark !== null, text);
  return { nonce: mark[1]!, since: mark[2]! };
}

const mine = (s: State) =>
  rawRequest({
    method: "POST",
    url: `${s.main.url}/braid/dev/mine`,
    body: { blocks: 1, chains: [0] },
  });

/** A peer that answers every request with an empty page of peers, and a port freed again. */
async function standInPeer(): Promise<State["peer"]> {
  const listening = async (server: Server) => {
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    return (server.address() as AddressInfo).port;
  };
  const closed = createServer();
  const closedPort = await listening(closed);
  closed.close();
  const server = createServer((_request, response) => {
    response
      .writeHead(200, { "content-type": "application/json" })
      .end('{"limit":0,"items":[],"next":null}');
  });
  const port = await listening(server);
  return {
    port,
    closedPort,
    async close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The calls of each served operation

const CALLS: Readonly<Record<string, readonly Call[]>> = {
  // The cut.
  [operationKey("chainweb", "get", "/cut")]: [
    {
      name: "the current cut",
      status: 200,
      check: (body) => assert.equal(keysOf((body as { hashes: object }).hashes).length, 20),
    },
    { name: "?maxheight=10", status: 200, request: () => ({ query: { maxheight: 10 } }) },
  ],
  [operationKey("chainweb", "put", "/cut")]: [
    {
      name: "the node's own cut, with a peer as its origin (204)",
      status: 204,
      request: async (s) => {
        const origin = { id: null, address: { hostname: "127.0.0.1", port: s.peer.port } };
        // The stand-in announces itself first: a cut is taken from peers only.
        const announced = await rawRequest({
          method: "PUT",
          url: `${s.main.url}/chainweb/0.0/${NETWORK}/cut/peer`,
          body: origin,
        });
        assert.equal(announced.status, 204, announced.body.toString());
        return { body: { ...(await ownCut(s)), origin } };
      },
    },
    {
      name: "the node's own cut, from an origin that is not a peer (401)",
      status: 401,
      request: async (s) => {
        const origin = { id: null, address: { hostname: "127.0.0.1", port: s.peer.closedPort } };
        return { body: { ...(await ownCut(s)), origin } };
      },
    },
  ],

  // The cut network's peer database.
  [operationKey("chainweb", "get", "/cut/peer")]: [
    { name: "every peer", status: 200 },
    {
      name: "?limit=1",
      status: 200,
      request: () => ({ query: { limit: 1 } }),
      check: (body) => assert.ok(items(body).length <= 1),
    },
  ],
  [operationKey("chainweb", "put", "/cut/peer")]: [
    {
      name: "a peer that answers at its address (204)",
      status: 204,
      request: (s) => ({
        body: { id: null, address: { hostname: "127.0.0.1", port: s.peer.port } },
      }),
    },
    {
      name: "400: a peer that does not answer",
      status: 400,
      request: (s) => ({
        body: { id: null, address: { hostname: "127.0.0.1", port: s.peer.closedPort } },
      }),
    },
  ],

  // A chain's mempool network: the same peer database.
  [operationKey("chainweb", "get", "/chain/{chain}/mempool/peer")]: [
    { name: "every peer", status: 200, request: () => ({ params: { chain: "0" } }) },
  ],
  [operationKey("chainweb", "put", "/chain/{chain}/mempool/peer")]: [
    {
      name: "a peer that answers at its address (204)",
      status: 204,
      request: (s) => ({
        params: { chain: "3" },
        body: { id: null, address: { hostname: "127.0.0.1", port: s.peer.port } },
      }),
    },
  ],

  // The configuration.
  [operationKey("chainweb", "get", "/config")]: [
    {
      name: "the configuration, without the data directory",
      status: 200,
      check: (body) => {
        assert.equal(typeof body, "object");
        assert.ok(!("storage" in (body as object)), "no storage options");
      },
    },
  ],

  // Block hashes.
  [operationKey("chainweb", "get", "/chain/{chain}/hash")]: [
    {
      name: "?limit=2",
      status: 200,
      request: () => ({ query: { limit: 2 } }),
      check: (body) => assert.equal(items(body).length, 2),
    },
    {
      name: "the next page (?limit=1&next=)",
      status: 200,
      request: (s) => ({ query: { limit: 1, next: s.next } }),
    },
    {
      name: "?minheight=1&maxheight=2",
      status: 200,
      request: () => ({ query: { minheight: 1, maxheight: 2 } }),
    },
    {
      name: "404: next names no stored block",
      status: 404,
      request: () => ({ query: { next: `inclusive:${UNKNOWN_HASH}` } }),
    },
  ],
  [operationKey("chainweb", "post", "/chain/{chain}/hash/branch")]: [
    {
      name: "ancestors of the head (?limit=3)",
      status: 200,
      request: (s) => ({ query: { limit: 3 }, body: { lower: [], upper: [s.head] } }),
    },
    {
      name: "between genesis and the head (?minheight=1)",
      status: 200,
      request: (s) => ({ query: { minheight: 1 }, body: { lower: [s.genesis], upper: [s.head] } }),
    },
    {
      name: "404: an upper bound that is not stored",
      status: 404,
      request: () => ({ body: { lower: [], upper: [UNKNOWN_HASH] } }),
    },
  ],

  // The mempool P2P API, on the node that mines nothing (a transfer pending there).
  [operationKey("chainweb", "post", "/chain/{chain}/mempool/getPending")]: [
    {
      name: "the whole mempool",
      node: "idle",
      status: 200,
      check: (body, s) => assert.ok((body as { hashes: string[] }).hashes.includes(s.pendingKey)),
    },
    {
      name: "since the node's own mark (?nonce=&since=): nothing new",
      node: "idle",
      status: 200,
      request: async (s) => {
        const mark = await idleMark(s);
        return { query: { nonce: mark.nonce, since: mark.since } };
      },
      check: (body) => assert.deepEqual((body as { hashes: string[] }).hashes, []),
    },
  ],
  [operationKey("chainweb", "post", "/chain/{chain}/mempool/member")]: [
    {
      name: "a pending transfer and an unknown key",
      node: "idle",
      status: 200,
      request: (s) => ({ body: [s.pendingKey, UNKNOWN_HASH] }),
      check: (body) => assert.deepEqual(body, [true, false]),
    },
    { name: "an empty body", node: "idle", status: 200, request: () => ({ body: [] }) },
  ],
  [operationKey("chainweb", "post", "/chain/{chain}/mempool/lookup")]: [
    {
      name: "a pending transfer and an unknown key",
      node: "idle",
      status: 200,
      request: (s) => ({ body: [s.pendingKey, UNKNOWN_HASH] }),
      check: (body, s) => {
        const [pending, missing] = body as { tag: string; contents?: string }[];
        assert.equal(pending!.tag, "Pending");
        assert.equal((JSON.parse(pending!.contents!) as { hash: string }).hash, s.pendingKey);
        assert.deepEqual(missing, { tag: "Missing" });
      },
    },
    { name: "an empty body", node: "idle", status: 200, request: () => ({ body: [] }) },
  ],
  [operationKey("chainweb", "put", "/chain/{chain}/mempool/insert")]: [
    {
      name: "a signed transfer (200, empty body)",
      node: "idle",
      status: 200,
      request: async () => ({ body: [JSON.stringify(await transfer("5.0"))] }),
    },
    { name: "an empty body", node: "idle", status: 200, request: () => ({ body: [] }) },
  ],

  // Blocks.
  [operationKey("chainweb", "get", "/chain/{chain}/block")]: [
    {
      name: "the transfer's height (?minheight=&maxheight=)",
      status: 200,
      request: (s) => ({ query: { minheight: s.block.height, maxheight: s.block.height } }),
      check: (body, s) => {
        const found = items(body).find(
          (b) => (b as { header: { hash: string } }).header.hash === s.block.hash,
        ) as { payloadWithOutputs: { transactions: unknown[] } } | undefined;
        assert.ok(found, "the transfer's block");
        assert.ok(found.payloadWithOutputs.transactions.length >= 1);
      },
    },
    {
      name: "the next page (?limit=1&next=)",
      status: 200,
      request: (s) => ({ query: { limit: 1, next: s.next } }),
    },
    {
      name: "404: next names no stored block",
      status: 404,
      request: () => ({ query: { next: `inclusive:${UNKNOWN_HASH}` } }),
    },
  ],
  [operationKey("chainweb", "post", "/chain/{chain}/block/branch")]: [
    {
      name: "ancestors of the transfer's block (?limit=2)",
      status: 200,
      request: (s) => ({ query: { limit: 2 }, body: { lower: [], upper: [s.block.hash] } }),
    },
    {
      name: "400: 33 upper bounds",
      status: 400,
      request: () => ({ body: { lower: [], upper: TOO_MANY_BOUNDS } }),
    },
    {
      name: "404: an upper bound that is not stored",
      status: 404,
      request: () => ({ body: { lower: [], upper: [UNKNOWN_HASH] } }),
    },
    {
      name: "406: Accept application/octet-stream",
      status: 406,
      request: (s) => ({
        accept: "application/octet-stream",
        body: { lower: [], upper: [s.head] },
      }),
    },
  ],

  // Headers.
  [operationKey("chainweb", "get", "/chain/{chain}/header")]: [
    {
      name: "base64url headers (Accept application/json, ?limit=3)",
      status: 200,
      request: () => ({ accept: "application/json", query: { limit: 3 } }),
    },
    {
      name: "object headers (Accept …;blockheader-encoding=object, ?limit=3)",
      status: 200,
      request: () => ({ accept: OBJECT_HEADERS, query: { limit: 3 } }),
    },
    {
      name: "404: next names no stored block",
      status: 404,
      request: () => ({ query: { next: `inclusive:${UNKNOWN_HASH}` } }),
    },
  ],
  [operationKey("chainweb", "get", "/chain/{chain}/header/{blockHash}")]: [
    {
      name: "base64url (Accept application/json)",
      status: 200,
      request: (s) => ({ params: { blockHash: s.block.hash }, accept: "application/json" }),
    },
    {
      name: "object (Accept …;blockheader-encoding=object)",
      status: 200,
      request: (s) => ({ params: { blockHash: s.block.hash }, accept: OBJECT_HEADERS }),
      check: (body, s) => assert.equal((body as { hash: string }).hash, s.block.hash),
    },
    {
      name: "binary (Accept application/octet-stream)",
      status: 200,
      request: (s) => ({
        params: { blockHash: s.block.hash },
        accept: "application/octet-stream",
      }),
    },
    {
      name: "404: a hash not stored",
      status: 404,
      request: () => ({ params: { blockHash: UNKNOWN_HASH } }),
    },
    {
      name: "406: Accept text/html",
      status: 406,
      request: (s) => ({ params: { blockHash: s.block.hash }, accept: "text/html" }),
    },
  ],
  [operationKey("chainweb", "post", "/chain/{chain}/header/branch")]: [
    {
      name: "base64url headers (Accept application/json)",
      status: 200,
      request: (s) => ({
        accept: "application/json",
        query: { limit: 3 },
        body: { lower: [], upper: [s.head] },
      }),
    },
    {
      name: "object headers (Accept …;blockheader-encoding=object)",
      status: 200,
      request: (s) => ({
        accept: OBJECT_HEADERS,
        query: { limit: 3 },
        body: { lower: [], upper: [s.head] },
      }),
    },
    {
      name: "400: 33 upper bounds",
      status: 400,
      request: () => ({ body: { lower: [], upper: TOO_MANY_BOUNDS } }),
    },
    {
      name: "404: an upper bound that is not stored",
      status: 404,
      request: () => ({ body: { lower: [], upper: [UNKNOWN_HASH] } }),
    },
    {
      name: "406: Accept text/html",
      status: 406,
      request: (s) => ({ accept: "text/html", body: { lower: [], upper: [s.head] } }),
    },
  ],

  // Payloads.
  [operationKey("chainweb", "get", "/chain/{chain}/payload/{payloadHash}")]: [
    {
      name: "the transfer's payload (?height=)",
      status: 200,
      request: (s) => ({
        params: { payloadHash: s.block.payloadHash },
        query: { height: s.block.height },
      }),
      check: (body) => assert.ok((body as { transactions: unknown[] }).transactions.length >= 1),
    },
    {
      name: "404: a payload hash not stored",
      status: 404,
      request: () => ({ params: { payloadHash: UNKNOWN_HASH } }),
    },
  ],
  [operationKey("chainweb", "post", "/chain/{chain}/payload/batch")]: [
    {
      name: "[hash…], one of them unknown",
      status: 200,
      request: (s) => ({ body: [s.block.payloadHash, UNKNOWN_HASH] }),
      check: (body) => assert.equal((body as unknown[]).length, 1),
    },
    {
      name: '{"hashes","heights"}',
      status: 200,
      request: (s) => ({ body: { hashes: [s.block.payloadHash], heights: [s.block.height] } }),
      check: (body) => assert.equal((body as unknown[]).length, 1),
    },
  ],
  [operationKey("chainweb", "get", "/chain/{chain}/payload/{payloadHash}/outputs")]: [
    {
      name: "the transfer's payload with outputs (?height=)",
      status: 200,
      request: (s) => ({
        params: { payloadHash: s.block.payloadHash },
        query: { height: s.block.height },
      }),
    },
    {
      name: "404: a payload hash not stored",
      status: 404,
      request: () => ({ params: { payloadHash: UNKNOWN_HASH } }),
    },
  ],
  [operationKey("chainweb", "post", "/chain/{chain}/payload/outputs/batch")]: [
    {
      name: "[hash…], one of them unknown",
      status: 200,
      request: (s) => ({ body: [s.block.payloadHash, UNKNOWN_HASH] }),
      check: (body) => assert.equal((body as unknown[]).length, 1),
    },
    {
      name: '{"hashes","heights"}',
      status: 200,
      request: (s) => ({ body: { hashes: [s.block.payloadHash], heights: [s.block.height] } }),
    },
  ],

  // Mining (the pow node).
  [operationKey("chainweb", "get", "/mining/work")]: [
    {
      name: "work, with the miner info as the body",
      node: "pow",
      status: 200,
      request: () => ({
        accept: "application/octet-stream",
        body: { account: "miner", predicate: "keys-all", "public-keys": [SENDER00.publicKey] },
      }),
    },
  ],
  [operationKey("chainweb", "post", "/mining/solved")]: [
    {
      name: "solved work (204)",
      node: "pow",
      status: 204,
      request: async (s) => ({
        body: await solvedWork(s),
        contentType: "application/octet-stream",
      }),
      // The node's own miner can make the work stale first.
      retry: (r) => r.status === 400 && /moved on/.test(r.body.toString()),
    },
  ],
  [operationKey("chainweb", "get", "/mining/updates")]: [
    {
      name: "New Cut events for chain 0 (the chain id as 4 bytes)",
      node: "pow",
      status: 200,
      request: () => ({ body: new Uint8Array(4), contentType: "application/octet-stream" }),
      stream: { events: 1 },
    },
  ],

  // Miscellaneous.
  [operationKey("chainweb", "get", "/health-check")]: [{ name: "health check", status: 200 }],
  [operationKey("chainweb", "get", "/info")]: [
    {
      name: "node info",
      status: 200,
      check: (body) => assert.equal((body as { nodeVersion: string }).nodeVersion, NETWORK),
    },
  ],
  [operationKey("chainweb", "get", "/header/updates")]: [
    {
      name: "BlockHeader events while a block is mined",
      status: 200,
      stream: { events: 2, trigger: mine },
    },
  ],
  [operationKey("chainweb", "get", "/block/updates")]: [
    {
      name: "block events while a block is mined",
      status: 200,
      stream: { events: 2, trigger: mine },
      check: (body) => {
        const data = (body as { data: Record<string, unknown> }[])[0]!.data;
        assert.ok("payloadWithOutputs" in data);
      },
    },
  ],

  // The Pact API.
  [operationKey("pact", "post", "/local")]: [
    {
      name: "a signed read",
      status: 200,
      request: async () => ({ body: await readCommand('(coin.get-balance "sender00")', true) }),
      check: (body) =>
        assert.equal((body as { result: { status: string } }).result.status, "success"),
    },
    {
      name: "?preflight=true&signatureVerification=true, a transfer",
      status: 200,
      request: async () => ({
        query: { preflight: true, signatureVerification: true },
        body: await transfer("2.5"),
      }),
      check: (body) => assert.ok("preflightResult" in (body as object)),
    },
    {
      name: "?rewindDepth=2&signatureVerification=false, unsigned",
      status: 200,
      request: async () => ({
        query: { rewindDepth: 2, signatureVerification: false },
        body: await readCommand('(coin.get-balance "sender01")'),
      }),
    },
    {
      name: "a failure (enforce)",
      status: 200,
      request: async () => ({ body: await readCommand('(enforce false "no")', true) }),
      check: (body) =>
        assert.equal((body as { result: { status: string } }).result.status, "failure"),
    },
    {
      name: "400: a command whose hash is wrong",
      status: 400,
      request: async () => ({ body: { ...(await readCommand("(+ 1 2)")), hash: UNKNOWN_HASH } }),
    },
  ],
  [operationKey("pact", "post", "/send")]: [
    {
      name: "a signed transfer",
      status: 200,
      request: async () => ({ body: { cmds: [await transfer("0.5")] } }),
    },
    {
      name: "400: an unsigned transfer",
      status: 400,
      request: async () => {
        const command = await transfer("0.25");
        return { body: { cmds: [{ ...command, sigs: [] }] } };
      },
    },
  ],
  [operationKey("pact", "post", "/poll")]: [
    {
      name: "a transfer, a failure, both steps of a cross-chain transfer",
      status: 200,
      request: (s) => ({
        body: { requestKeys: [s.transferKey, s.failedKey, s.xchainKey, s.contKey] },
      }),
      // The cont ran on chain 1; chain 0 has the other three.
      check: (body, s) =>
        assert.deepEqual(keysOf(body).sort(), [s.transferKey, s.failedKey, s.xchainKey].sort()),
    },
    {
      name: "the second step on chain 1 (?confirmationDepth=1)",
      status: 200,
      request: (s) => ({
        params: { chainId: 1 },
        query: { confirmationDepth: 1 },
        body: { requestKeys: [s.contKey] },
      }),
      check: (body, s) => assert.deepEqual(keysOf(body), [s.contKey]),
    },
  ],
  [operationKey("pact", "post", "/listen")]: [
    {
      name: "a transfer",
      status: 200,
      request: (s) => ({ body: { listen: s.transferKey } }),
    },
    {
      name: "a cross-chain transfer's first step (a continuation with a yield)",
      status: 200,
      request: (s) => ({ body: { listen: s.xchainKey } }),
    },
    {
      name: "its second step on chain 1",
      status: 200,
      request: (s) => ({ params: { chainId: 1 }, body: { listen: s.contKey } }),
    },
  ],
  [operationKey("pact", "post", "/private")]: [
    {
      name: "a command with private metadata",
      status: 200,
      request: () => ({ body: privateCommand() }),
    },
  ],
  [operationKey("pact", "post", "/spv")]: [
    {
      name: "the proof of a cross-chain transfer's first step",
      status: 200,
      request: (s) => ({ body: { requestKey: s.xchainKey, targetChainId: "1" } }),
    },
    {
      name: "400: a request key not on the chain",
      status: 400,
      request: () => ({ body: { requestKey: UNKNOWN_HASH, targetChainId: "1" } }),
    },
  ],
};

// ---------------------------------------------------------------------------------------------
// Running a call

// Loaded by the tests below, which are skipped where the documents are missing.
let docs: Record<DocumentName, LoadedDocument>;
let allOperations: Operation[];

/** Events whose frame is complete in `text`. */
const completeEvents = (text: string) =>
  parseEventStream(text.slice(0, text.lastIndexOf("\n\n") + 2)).events.length;

interface Sent {
  readonly request: Request;
  readonly response: RawResponse;
  readonly requestProblems: string[];
}

async function send(
  op: Operation,
  call: Call,
  s: State,
  options: { chain?: number; rewrite?: (url: string) => string } = {},
): Promise<Sent> {
  const loaded = docs[op.document];
  const node = call.node === "pow" ? s.pow : call.node === "idle" ? s.idle : s.main;
  for (let attempt = 1; ; attempt++) {
    const r = (await call.request?.(s)) ?? {};
    const params = { chain: 0, chainId: 0, ...r.params };
    if (options.chain !== undefined) {
      params.chain = options.chain;
      params.chainId = options.chain;
    }
    let url = operationUrl(op, node.url, NETWORK, params, r.query);
    if (options.rewrite) url = options.rewrite(url);
    // Every request body, error cases included, is one the document describes.
    const requestProblems =
      r.body instanceof Uint8Array || r.body === undefined
        ? []
        : checkRequestBody(loaded, op, r.body, r.contentType);
    const request = {
      method: op.method.toUpperCase(),
      url,
      headers: {
        ...(r.accept === undefined ? {} : { accept: r.accept }),
        ...(r.contentType === undefined ? {} : { "content-type": r.contentType }),
      },
      body: r.body,
    };
    let response: RawResponse;
    if (call.stream !== undefined) {
      const { events, trigger } = call.stream;
      let triggered: Promise<unknown> | undefined;
      response = await readResponse(
        { ...request, timeoutMs: 15_000 },
        (body) => completeEvents(body.toString("utf8")) >= events,
        () => {
          triggered = trigger?.(s);
        },
      );
      await triggered;
      const text = response.body.toString("utf8");
      response = { ...response, body: Buffer.from(text.slice(0, text.lastIndexOf("\n\n") + 2)) };
      if (response.status === 200) {
        assert.ok(completeEvents(text) >= events, `fewer than ${events} events in 15 s:\n${text}`);
      }
    } else {
      response = await rawRequest(request);
    }
    if (attempt < 10 && call.retry?.(response)) continue;
    return { request: r, response, requestProblems };
  }
}

/**
 * The Pact API under the interface spec's paths (`../shared/spec/node-interface.md`):
 * `…/chain/{c}/contract/api/v1/…` for `…/pact/api/v1/…` and for `…/pact/spv`, where `spv`
 * answers `{"spv": proof}` instead of the bare proof.
 */
const CONTRACT_PATHS = {
  rewrite(url: string): string {
    const u = new URL(url);
    u.pathname = u.pathname
      .replace(/\/pact\/api\/v1\//, "/contract/api/v1/")
      .replace(/\/pact\/spv$/, "/contract/api/v1/spv");
    return u.toString();
  },
  /** The field a 200 body of the operation is wrapped in on these paths. */
  wrappedIn: { [operationKey("pact", "post", "/spv")]: "spv" } as Record<string, string>,
};

async function runCall(
  op: Operation,
  call: Call,
  s: State,
  variant: { rewrite?: (url: string) => string; wrappedIn?: string } = {},
): Promise<void> {
  const loaded: LoadedDocument = docs[op.document];
  const sent = await send(op, call, s, variant.rewrite ? { rewrite: variant.rewrite } : {});
  const { request, requestProblems } = sent;
  let response = sent.response;
  assert.deepEqual(requestProblems, [], "the request is what the document describes");
  assert.equal(
    response.status,
    call.status,
    `status ${response.status}, expected ${call.status}: ${response.body.toString("utf8").slice(0, 500)}`,
  );
  if (variant.wrappedIn !== undefined && response.status === 200) {
    const outer = JSON.parse(response.body.toString("utf8")) as unknown;
    assert.ok(
      typeof outer === "object" && outer !== null && !Array.isArray(outer),
      `the body is {"${variant.wrappedIn}": …}, got ${JSON.stringify(outer).slice(0, 100)}`,
    );
    assert.deepEqual(Object.keys(outer), [variant.wrappedIn]);
    const inner = (outer as Record<string, unknown>)[variant.wrappedIn];
    response = { ...response, body: Buffer.from(JSON.stringify(inner)) };
  }
  const checked = checkResponse(loaded, op, response, request.accept);
  assert.deepEqual(
    checked.problems,
    [],
    `${op.key} (${call.name}):\n${checked.problems.join("\n")}`,
  );
  call.check?.(checked.body, s);
}

// ---------------------------------------------------------------------------------------------
// The tests

describe("Chainweb's OpenAPI documents, against braid node", {
  timeout: 90_000,
  skip: documentsSkip(),
}, () => {
  docs = loadDocuments(DOCUMENTS_DIR, DOCUMENT_EXCEPTIONS);
  allOperations = [...docs.chainweb.operations, ...docs.pact.operations];
  const state = {} as State;

  before(async () => {
    [state.main, state.pow, state.idle, state.peer] = await Promise.all([
      startNode(),
      startNode({ args: ["--mining", "pow"] }),
      startNode({ args: ["--mining", "none"] }),
      standInPeer(),
    ]);
  });
  after(async () => {
    await Promise.all([
      state.main?.stop(),
      state.pow?.kill(),
      state.idle?.stop(),
      state.peer?.close(),
    ]);
  });

  test("every operation of both documents is exercised or listed as not served", () => {
    const keys = allOperations.map((op) => op.key);
    assert.equal(new Set(keys).size, keys.length);
    for (const key of keys) {
      const served = key in CALLS;
      const notServed = key in NOT_SERVED;
      assert.ok(served !== notServed, `${key}: ${served ? "in both tables" : "in neither table"}`);
      if (served) assert.ok(CALLS[key]!.length > 0, `${key}: no calls`);
    }
    for (const key of [...Object.keys(CALLS), ...Object.keys(NOT_SERVED)]) {
      assert.ok(keys.includes(key), `${key} is not an operation of the documents`);
    }
  });

  test("the converted schemas still refuse what the documents forbid", () => {
    const header = docs.chainweb.validator(
      { $ref: "#/components/schemas/blockHeader" },
      "self-check/blockHeader",
    );
    assert.equal(header({ hash: "short" }), false);
    const result = docs.pact.validator(
      { $ref: "#/components/schemas/command-result" },
      "self-check/command-result",
    );
    const good = {
      reqKey: UNKNOWN_HASH,
      result: { status: "success", data: 3 },
      logs: "x",
      metaData: null,
      gas: 1,
      txId: null,
      events: [{ name: "E", module: { name: "m", namespace: null }, params: [], moduleHash: "h" }],
    };
    assert.equal(result(good), true, JSON.stringify(result.errors));
    assert.equal(result({ ...good, reqKey: "x" }), false);
    assert.equal(result({ ...good, logs: null }), false);
    assert.equal(result({ ...good, events: [{ module: { namespace: 1 } }] }), false);
  });

  const powOperations = allOperations.filter((op) => CALLS[op.key]?.some((c) => c.node === "pow"));
  describe("the mining API (a node in pow mode)", () => {
    after(async () => {
      // It mines all the time: free the CPU for the rest.
      await state.pow?.kill();
    });
    for (const op of powOperations) {
      describe(op.key, () => {
        for (const call of CALLS[op.key]!) {
          test(call.name, () => runCall(op, call, state));
        }
      });
    }
  });

  describe("an on-demand node with a transfer, a failure and a cross-chain transfer", () => {
    before(async () => {
      const main = state.main;
      const client = clientFor(main.url, "pact");
      const failing = signWith(
        SENDER00,
        Pact.builder
          .execution('(coin.transfer "sender00" "sender01" 1000000000.0)')
          .addSigner(SENDER00.publicKey, (withCap) => [
            withCap("coin.GAS"),
            withCap("coin.TRANSFER", "sender00", "sender01", { decimal: "1000000000.0" }),
          ])
          .setMeta({ chainId: "0", senderAccount: "sender00", gasLimit: 1000 })
          .setNetworkId(NETWORK)
          .setNonce(nonce("failing"))
          .createTransaction(),
      );
      const xchain = signWith(SENDER00, crossChainTransferCommand(nonce("xchain")));
      const [sentTransfer, sentFailing, sentXchain] = await Promise.all(
        [transfer("1.0"), failing, xchain].map(async (c) => client.submitOne(await c)),
      );
      const [done, failed, first] = await Promise.all(
        [sentTransfer!, sentFailing!, sentXchain!].map((d) => client.listen(d)),
      );
      assert.equal(done!.result.status, "success");
      assert.equal(failed!.result.status, "failure");
      assert.equal(first!.result.status, "success");
      const proof = (await client.pollCreateSpv(sentXchain!, "1")).replace(/"/g, "");
      const cont = await signWith(
        SENDER01,
        Pact.builder
          .continuation({
            pactId: sentXchain!.requestKey,
            proof,
            rollback: false,
            step: 1,
            data: {},
          })
          .addSigner(SENDER01.publicKey, (withCap) => [withCap("coin.GAS")])
          .setMeta({ chainId: "1", senderAccount: "sender01", gasLimit: 10_000 })
          .setNetworkId(NETWORK)
          .setNonce(nonce("cont"))
          .createTransaction(),
      );
      const sentCont = await client.submitOne(cont);
      const pending = await clientFor(state.idle.url, "pact").submitOne(await transfer("4.0"));
      state.pendingKey = pending.requestKey;
      assert.equal((await client.listen(sentCont)).result.status, "success");

      state.transferKey = sentTransfer!.requestKey;
      state.failedKey = sentFailing!.requestKey;
      state.xchainKey = sentXchain!.requestKey;
      state.contKey = sentCont.requestKey;
      const base = `${main.url}/chainweb/0.0/${NETWORK}`;
      const json = async <T>(url: string, accept = "application/json"): Promise<T> => {
        const r = await rawRequest({ method: "GET", url, headers: { accept } });
        assert.equal(r.status, 200, `${url}: ${r.body.toString()}`);
        return JSON.parse(r.body.toString()) as T;
      };
      const blockHash = String(done!.metaData!.blockHash);
      const header = await json<{ height: number; payloadHash: string }>(
        `${base}/chain/0/header/${blockHash}`,
        OBJECT_HEADERS,
      );
      state.block = { hash: blockHash, height: header.height, payloadHash: header.payloadHash };
      state.genesis = (await json<{ items: string[] }>(`${base}/chain/0/hash?maxheight=0`))
        .items[0]!;
      const cut = await json<{ hashes: Record<string, { hash: string }> }>(`${base}/cut`);
      state.head = cut.hashes["0"]!.hash;
      state.next = (await json<{ next: string }>(`${base}/chain/0/hash?limit=1`)).next;
    });

    for (const document of ["chainweb", "pact"] as const satisfies readonly DocumentName[]) {
      describe(`${document} document`, () => {
        for (const op of docs[document].operations) {
          const calls = CALLS[op.key];
          if (calls === undefined || calls.some((c) => c.node === "pow")) continue;
          describe(op.key, () => {
            for (const call of calls) {
              test(call.name, () => runCall(op, call, state));
            }
          });
        }
      });
    }

    describe("the operations not served answer 404 (move them to CALLS once they are)", () => {
      for (const op of allOperations) {
        if (!(op.key in NOT_SERVED)) continue;
        test(op.key, async () => {
          const url = operationUrl(op, state.main.url, NETWORK, { chain: 0, backupId: "1" });
          const body = op.method === "get" ? undefined : {};
          const response = await rawRequest({ method: op.method.toUpperCase(), url, body });
          assert.equal(response.status, 404, response.body.toString("utf8"));
        });
      }
    });

    describe("pact document, on the interface spec's contract/api/v1 paths", () => {
      for (const op of docs.pact.operations) {
        const calls = CALLS[op.key];
        if (calls === undefined) continue;
        const wrappedIn = CONTRACT_PATHS.wrappedIn[op.key];
        describe(op.key, () => {
          for (const call of calls) {
            test(call.name, () =>
              runCall(op, call, state, { rewrite: CONTRACT_PATHS.rewrite, wrappedIn }),
            );
          }
        });
      }
    });

    describe(`an unknown chain (${UNKNOWN_CHAIN}): 404, text/plain (docs/node.md; the documents' 404s are for unknown keys)`, () => {
      for (const op of allOperations) {
        const call = CALLS[op.key]?.[0];
        const scoped =
          op.path.includes("{chain}") ||
          op.servers.some((s) => String(s.url).includes("{chainId}"));
        if (call === undefined || !scoped) continue;
        test(op.key, async () => {
          const { response } = await send(
            op,
            { ...call, stream: undefined, retry: undefined },
            state,
            {
              chain: UNKNOWN_CHAIN,
            },
          );
          const text = response.body.toString("utf8");
          assert.equal(response.status, 404, text);
          assert.match(String(response.headers["content-type"]), /^text\/plain/);
          assert.match(text, /no such chain/);
          for (const name of ["x-peer-addr", "x-server-timestamp", "x-chainweb-node-version"]) {
            assert.ok(response.headers[name] !== undefined, `header ${name}`);
          }
        });
      }
    });
  });
});
