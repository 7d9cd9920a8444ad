/**
 * Who may use the development controls (`/braid/dev/…`). They move the node's clock, revert its
 * chains and spend the faucet, so:
 * - they are served only when the node listens on this machine alone (a loopback address) or was
 *   started with `--dev-controls`; otherwise every call is a 403 saying how to open them;
 * - no web page of another origin can call them: they have no CORS (cors.ts), a request whose
 *   `Origin` is not the node's own is a 403 (a preflight included), and on a loopback node so is
 *   a `Host` that names no loopback address (a DNS-rebinding page's requests look same-origin
 *   to the browser, but carry the page's host name);
 * - their bodies must be `application/json` (dev-routes.ts), which a page cannot send to another
 *   origin without a preflight.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { HttpError } from "../http/errors.ts";
import { quoteText } from "../http/quote.ts";

/** Where the node listens, and whether `--dev-controls` opened the controls beyond loopback. */
export interface DevControlsExposure {
  readonly host: string;
  readonly openedByFlag: boolean;
}

/** Whether `host` (a name or an address, IPv6 with or without brackets) is this machine only. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return (
    name === "localhost" ||
    name === "::1" ||
    /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) ||
    name === "0:0:0:0:0:0:0:1"
  );
}

/** Why the controls are off on a node exposed so, or null when they are served. */
export function devControlsClosedReason(exposure: DevControlsExposure): string | null {
  if (exposure.openedByFlag || isLoopbackHost(exposure.host)) return null;
  return `the development controls are off: this node listens on ${exposure.host}, beyond this machine; start it with --dev-controls to serve them to everyone who can reach it`;
}

/** The `onRequest` hook of every development control route. */
export function devRequestGuard(exposure: DevControlsExposure) {
  const closed = devControlsClosedReason(exposure);
  const loopbackOnly = isLoopbackHost(exposure.host);
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    done(refusal(request, closed, loopbackOnly) ?? undefined);
  };
}

function refusal(
  request: FastifyRequest,
  closed: string | null,
  loopbackOnly: boolean,
): HttpError | null {
  if (closed !== null) return new HttpError(403, closed);
  const host = request.headers.host ?? "";
  if (loopbackOnly && !isLoopbackHost(hostName(host))) {
    return new HttpError(
      403,
      `the development controls answer only requests addressed to this machine (Host localhost, 127.0.0.1 or [::1]), got Host ${quoteText(host)}`,
    );
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host.toLowerCase()}`) {
    return new HttpError(
      403,
      `the development controls refuse requests from web pages of other origins, got Origin ${quoteText(origin)}; use braid dev or a page of this node`,
    );
  }
  return null;
}

/** The host name of a `Host` header (`[::1]:8080` → `[::1]`); empty when it is none. */
function hostName(host: string): string {
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) return "";
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return "";
  }
}
