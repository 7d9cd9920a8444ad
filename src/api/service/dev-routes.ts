/**
 * The development controls under `/braid/dev/` (docs/devtools.md): `mine`, `time`, `snapshot`,
 * `revert`, `fund`, each a POST with a JSON object body (`Content-Type: application/json` even
 * when empty) answered with JSON. Who may call them is dev-guard.ts's: refusals are 403s. On a
 * network that is not a development network every one of them is a 400 naming why; a bad body
 * is a 400 naming the field. A `mine` stops when its client goes away.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { encodeBase64Url } from "../../crypto/index.ts";
import {
  CommandRefusal,
  checkFundRequest,
  DevControlRefusal,
  type DevControls,
  FUND_PREDICATES,
  type FundRequest,
  type NodePorts,
} from "../../node/ports.ts";
import { whileClientWaits } from "../http/client-gone.ts";
import { SAME_ORIGIN_ONLY } from "../http/cors.ts";
import { badRequest, HttpError } from "../http/errors.ts";
import {
  bodyText,
  JSON_CONTENT_TYPE,
  jsonObjectBody,
  wrongContentType,
} from "../http/json-body.ts";
import { type DevControlsExposure, devRequestGuard } from "./dev-guard.ts";
import { JSON_TYPE } from "./request-parts.ts";

export const DEV_BASE = "/braid/dev";
/** What `fund` sends when the body names no amount, in KDA. */
export const DEFAULT_FUND_AMOUNT = "1000.0";

export function registerDevRoutes(
  app: FastifyInstance,
  { dev, clock }: Pick<NodePorts, "dev" | "clock">,
  exposure: DevControlsExposure,
): void {
  const controls = "refused" in dev ? null : dev;
  const guarded = { config: SAME_ORIGIN_ONLY, onRequest: devRequestGuard(exposure) };
  const post = (
    name: string,
    expected: string,
    handle: (
      controls: DevControls,
      body: Record<string, unknown>,
      gone: AbortSignal,
    ) => Promise<unknown>,
  ) =>
    app.post(
      `${DEV_BASE}/${name}`,
      guarded,
      async (request: FastifyRequest, reply: FastifyReply) => {
        if (controls === null) throw badRequest((dev as { refused: string }).refused);
        const contentType = request.headers["content-type"];
        if (contentType?.split(";")[0]?.trim().toLowerCase() !== JSON_CONTENT_TYPE) {
          throw wrongContentType(contentType);
        }
        const text = bodyText(request.body, contentType);
        const body = text.trim() === "" ? {} : jsonObjectBody(text, expected);
        try {
          const answer = await whileClientWaits(reply, (gone) => handle(controls, body, gone));
          return reply.type(JSON_TYPE).send(JSON.stringify(answer));
        } catch (e) {
          if (e instanceof DevControlRefusal || e instanceof CommandRefusal) {
            throw badRequest(e.message);
          }
          throw e;
        }
      },
    );
  // Only a browser's preflight asks; the guard refuses another origin's, and there is no other use.
  app.options(`${DEV_BASE}/*`, guarded, () => {
    throw new HttpError(405, "the development controls take POST requests only");
  });

  post("mine", '{"blocks": n, "chains": [c, …]}', async (controls, body, gone) => {
    const heights = await controls.mine(integerField(body, "blocks"), chainsField(body), gone);
    return { heights: Object.fromEntries(heights) };
  });

  post("time", '{"seconds": n}', async (controls, body) => {
    const offsetSeconds = await controls.advanceTime(integerField(body, "seconds"));
    return { offsetSeconds, now: new Date(clock.nowMicros() / 1000).toISOString() };
  });

  post("snapshot", "{}", async (controls) => ({ id: await controls.snapshot() }));

  post("revert", '{"id": n}', async (controls, body) => {
    const id = integerField(body, "id");
    const { heads, orphaned } = await controls.revert(id);
    const byChain = [...heads].map(([chainId, head]) => [
      chainId,
      { height: head.height, hash: encodeBase64Url(head.hash) },
    ]);
    return { id, orphaned, heads: Object.fromEntries(byChain) };
  });

  post(
    "fund",
    '{"account": name, "keys": [hex, …], "pred"?, "amount"?, "chains"?: [c, …]}',
    async (controls, body) => {
      const request = checkFundRequest({
        account: stringField(body, "account"),
        keys: keysField(body),
        pred: (optional(body, "pred", stringField) ?? "keys-all") as FundRequest["pred"],
        amount: optional(body, "amount", amountField) ?? DEFAULT_FUND_AMOUNT,
        chains: body.chains === undefined ? [0] : chainsField(body),
      });
      const keys = await controls.fund(request);
      return { account: request.account, requestKeys: Object.fromEntries(keys) };
    },
  );
}

function optional<T>(
  body: Record<string, unknown>,
  name: string,
  read: (body: Record<string, unknown>, name: string) => T,
): T | undefined {
  return body[name] === undefined ? undefined : read(body, name);
}

function integerField(body: Record<string, unknown>, name: string): number {
  const value = body[name];
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw badRequest(`"${name}" must be an integer, got ${shown(value)}`);
  }
  return value;
}

function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== "string")
    throw badRequest(`"${name}" must be a string, got ${shown(value)}`);
  return value;
}

/** An amount as decimal text, or a JSON number (written back as text). */
function amountField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return stringField(body, name);
}

function chainsField(body: Record<string, unknown>): number[] {
  const value = body.chains;
  if (!Array.isArray(value) || value.some((c) => typeof c !== "number")) {
    throw badRequest(`"chains" must be a list of chain ids (numbers), got ${shown(value)}`);
  }
  return value as number[];
}

function keysField(body: Record<string, unknown>): string[] {
  const value = body.keys;
  if (!Array.isArray(value) || value.some((k) => typeof k !== "string")) {
    throw badRequest(
      `"keys" must be a list of hex public keys (the keyset's, with "pred" one of ${FUND_PREDICATES.join(", ")}), got ${shown(value)}`,
    );
  }
  return value as string[];
}

/** A value as it appears in a message: JSON, cut short. */
function shown(value: unknown): string {
  return value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value)).slice(0, 80);
}
