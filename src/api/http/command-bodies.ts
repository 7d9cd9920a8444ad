/**
 * The bodies of the contract command endpoints, checked for shape before anything runs:
 * `send` `{"cmds": [command, …]}`, `poll` `{"requestKeys": [key, …]}`, `listen` `{"listen": key}`.
 * A value of the wrong shape is refused with a 400 naming it, without looking inside it.
 */
import { badRequest } from "./errors.ts";
import { jsonObjectBody } from "./json-body.ts";
import { requestKey } from "./request-keys.ts";

/** The most commands one `send` may carry. */
export const MAX_SEND_COMMANDS = 1_000;
/** The most request keys one `poll` may ask for. */
export const MAX_POLL_KEYS = 1_000;

/** The commands of a `send` body, not yet parsed. */
export function sendBody(text: string): unknown[] {
  const cmds = jsonObjectBody(text, '{"cmds": [command, …]}').cmds;
  if (!Array.isArray(cmds)) throw badRequest(`the request body needs "cmds", a list of commands`);
  if (cmds.length === 0) throw badRequest(`"cmds" is empty: send at least one command`);
  if (cmds.length > MAX_SEND_COMMANDS) {
    throw badRequest(
      `"cmds" has ${cmds.length} commands; at most ${MAX_SEND_COMMANDS} are accepted per request`,
    );
  }
  return cmds;
}

/** The request keys of a `poll` body, each checked. */
export function pollBody(text: string): string[] {
  const keys = jsonObjectBody(text, '{"requestKeys": [key, …]}').requestKeys;
  if (!Array.isArray(keys)) {
    throw badRequest(`the request body needs "requestKeys", a list of request keys`);
  }
  if (keys.length === 0) throw badRequest(`"requestKeys" is empty: ask for at least one key`);
  if (keys.length > MAX_POLL_KEYS) {
    throw badRequest(
      `"requestKeys" has ${keys.length} keys; at most ${MAX_POLL_KEYS} are accepted per request`,
    );
  }
  return keys.map((k, i) => requestKey(k, `requestKeys[${i}]`));
}

/** The request key of a `listen` body. */
export function listenBody(text: string): string {
  return requestKey(jsonObjectBody(text, '{"listen": key}').listen, `"listen"`);
}
