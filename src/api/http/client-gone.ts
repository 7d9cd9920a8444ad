/**
 * Work that only its client wants (a `listen` wait, a dev `mine`) stops when the client goes away:
 * the signal aborts when the response's connection closes before the answer is written.
 */
import type { FastifyReply } from "fastify";

/** Runs `work` with a signal that aborts once `reply`'s client has gone without its answer. */
export async function whileClientWaits<T>(
  reply: FastifyReply,
  work: (gone: AbortSignal) => Promise<T>,
): Promise<T> {
  const gone = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) gone.abort();
  };
  reply.raw.once("close", onClose);
  try {
    return await work(gone.signal);
  } finally {
    reply.raw.off("close", onClose);
  }
}
