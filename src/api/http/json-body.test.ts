/**
 * Request bodies are read at most the pacing budget a turn of the event loop, clients' bodies and
 * peers' answers together (src/p2p/read-pacing.ts), so that a few large bodies arriving at once
 * never hold the server's thread for the time it takes to read them all; each still arrives whole.
 */
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import Fastify from "fastify";
import { MAX_READ_BYTES_PER_TURN } from "../../p2p/read-pacing.ts";
import { acceptJsonBodiesOnly } from "./json-body.ts";

/** Bodies sent at once, each several turns' worth of bytes. */
const BODIES = 4;
const BODY_BYTES = 3 * 1024 * 1024;
/** The most a socket's read brings at once: a stream paused past the budget may emit one more. */
const READ_CHUNK_BYTES = 64 * 1024;

describe("request bodies", () => {
  it(`are read at most ${MAX_READ_BYTES_PER_TURN} bytes a turn (and a chunk per body), each whole`, async () => {
    const app = Fastify({ bodyLimit: 2 * BODY_BYTES });
    acceptJsonBodiesOnly(app);
    // What the body parser receives in each turn of the event loop. A turn here begins in the
    // check phase, before the pacer's own start of a turn, which resumes the paused bodies.
    const readInTurn: number[] = [0];
    let counting = true;
    const nextTurn = () => {
      readInTurn.push(0);
      if (counting) setImmediate(nextTurn);
    };
    setImmediate(nextTurn);
    app.addHook("preParsing", (_request, _reply, payload, done) => {
      payload.on("data", (chunk: Buffer) => {
        readInTurn[readInTurn.length - 1]! += chunk.length;
      });
      done(null, payload);
    });
    app.post("/", async (req) => String((req.body as string).length));
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const { port } = app.server.address() as AddressInfo;
      const bodies = Array.from({ length: BODIES }, (_, i) =>
        JSON.stringify("x".repeat(BODY_BYTES - 2 - i)),
      );
      const lengths = await Promise.all(
        bodies.map(async (body) => {
          const answer = await fetch(`http://127.0.0.1:${port}/`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          });
          return answer.text();
        }),
      );
      assert.deepEqual(
        lengths,
        bodies.map((body) => String(body.length)),
      );
      const most = Math.max(...readInTurn);
      assert.ok(
        most <= MAX_READ_BYTES_PER_TURN + BODIES * READ_CHUNK_BYTES,
        `${most} bytes read in one turn`,
      );
    } finally {
      counting = false;
      await app.close();
    }
  });
});
