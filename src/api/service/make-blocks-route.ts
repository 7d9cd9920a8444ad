/**
 * `POST /make-blocks`: the block trigger of Kadena's devnet setups (chainweb-mining-client's
 * on-demand worker, `Worker/OnDemand.hs`), served by the node itself on a development network.
 * The body is a JSON object of chain ids (as text) to block counts, `{"0": 2, "3": 1}`, sent with
 * any content type (`curl -d '{}'` sends a form's); each chain gets that many more blocks, as
 * `braid dev mine` makes them (their neighbours keep up), and the answer is what the mining
 * client answers: 200, `Content-Type: text/plain`, the body `[]` (its JSON encoding of nothing).
 * Braid answers once the blocks are made (the mining client at once), so a script that polls next
 * finds them. Refusals are 400 text naming why; the development controls' guard applies.
 */
import type { FastifyInstance } from "fastify";
import { jsonObjectText } from "../../command/index.ts";
import { CommandRefusal, DevControlRefusal, type NodePorts } from "../../node/ports.ts";
import { whileClientWaits } from "../http/client-gone.ts";
import { SAME_ORIGIN_ONLY } from "../http/cors.ts";
import { badRequest } from "../http/errors.ts";
import { type DevControlsExposure, devRequestGuard } from "./dev-guard.ts";

export const MAKE_BLOCKS_PATH = "/make-blocks";

const CHAIN_ID = /^(0|[1-9][0-9]{0,8})$/;

export function registerMakeBlocksRoute(
  app: FastifyInstance,
  { dev, network }: Pick<NodePorts, "dev" | "network">,
  exposure: DevControlsExposure,
): void {
  app.register(async (scope) => {
    // The mining client reads the body as JSON whatever its content type says.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => {
      done(null, body);
    });
    const guarded = { config: SAME_ORIGIN_ONLY, onRequest: devRequestGuard(exposure) };
    scope.post(MAKE_BLOCKS_PATH, guarded, async (request, reply) => {
      if ("refused" in dev) throw badRequest(dev.refused);
      const text = typeof request.body === "string" ? request.body : "";
      const goals = blockGoals(text, network.chainCount);
      try {
        await whileClientWaits(reply, async (gone) => {
          for (const [blocks, chains] of goals) await dev.mine(blocks, chains, gone);
        });
      } catch (e) {
        if (e instanceof DevControlRefusal || e instanceof CommandRefusal) {
          throw badRequest(e.message);
        }
        throw e;
      }
      return reply.type("text/plain").send("[]");
    });
  });
}

/**
 * The body's counts grouped by count (each group one `mine`), chains with 0 left out; a 400
 * naming the first key or count that is not a chain id of the network or a whole number.
 */
function blockGoals(text: string, chainCount: number): Map<number, number[]> {
  const body = jsonObjectText(text, '{"<chain id>": <blocks>, …}');
  if (!body.ok) throw badRequest(body.message);
  const goals = new Map<number, number[]>();
  for (const [key, count] of Object.entries(body.value)) {
    if (!CHAIN_ID.test(key) || Number(key) >= chainCount) {
      throw badRequest(
        `make-blocks: ${JSON.stringify(key.slice(0, 40))} is not a chain id: the keys are chain ids from "0" to "${chainCount - 1}"`,
      );
    }
    if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) {
      throw badRequest(
        `make-blocks: the count of chain ${key} must be a whole number of blocks, got ${(JSON.stringify(count) ?? String(count)).slice(0, 40)}`,
      );
    }
    if (count > 0) goals.set(count, [...(goals.get(count) ?? []), Number(key)]);
  }
  return goals;
}
