/** Defaults and limits of the development server (documented in docs/devserver.md). */

/** The interface the server binds unless `host` says otherwise: this machine only. */
export const DEFAULT_HOST = "127.0.0.1";

/** The entity name private commands are addressed to unless `entity` says otherwise. */
export const DEFAULT_ENTITY = "entity";

/** How long `listen` waits for a result unless `listenTimeout` says otherwise (seconds). */
export const DEFAULT_LISTEN_TIMEOUT_SECONDS = 180;

/** The longest `listenTimeout` accepted (seconds): one hour. */
export const MAX_LISTEN_TIMEOUT_SECONDS = 3_600;

/** The largest request body accepted unless `bodyLimit` says otherwise (bytes): 1 MiB. */
export const DEFAULT_BODY_LIMIT_BYTES = 1_048_576;

/** The largest `bodyLimit` accepted (bytes): 64 MiB. */
export const MAX_BODY_LIMIT_BYTES = 67_108_864;

export { MAX_POLL_KEYS, MAX_SEND_COMMANDS } from "../http/command-bodies.ts";

/**
 * How long `send` and `private` wait for their commands' results before they answer with the
 * request keys anyway (the results then come to `poll` and `listen` when the commands have run):
 * an ordinary command's result is in `poll` as soon as `send` answers, as on Pact's server, and
 * a client whose commands wait behind long ones is not kept waiting past the node's `send`.
 */
export const SEND_WAIT_MS = 2_000;

/**
 * The most pieces of work (commands of `send` and `private`, `local` and `verify` calls) the
 * server holds for its contract thread, running and waiting; more are answered 503 at once, so
 * a flood of requests cannot make it hold an unbounded queue.
 */
export const MAX_WAITING_WORK = 10_000;

/** The file names inside `persistDir` and `logDir`. */
export const STATE_FILE = "pactdb.sqlite";
export const RESULTS_FILE = "results.sqlite";
export const ACCESS_LOG_FILE = "braid-server.log";
