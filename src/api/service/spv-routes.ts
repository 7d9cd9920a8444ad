/**
 * The SPV endpoint (issue #12, docs/node.md "SPV proofs"), served under both
 * `{base}/chain/{c}/contract/api/v1/spv` (the interface spec's path) and `{base}/chain/{c}/pact/spv`
 * (chainweb-node's, where `@kadena/client`'s `createSpv` and `pollCreateSpv` call). The body
 * `{"requestKey": <key>, "targetChainId": "<chain>"}` goes to the source chain. The proof is
 * base64url of Chainweb's proof JSON (chainweb-wire.md §4); the spec's path answers it as
 * `{"spv": proof}`, chainweb-node's as a bare JSON string, which deployed clients read.
 */
import type { FastifyInstance } from "fastify";
import { decodeBase64Url } from "../../crypto/index.ts";
import { type NodePorts, SpvRefusal } from "../../node/ports.ts";
import { jsonString } from "../../pact/values/index.ts";
import { badRequest } from "../http/errors.ts";
import { bodyText, jsonObjectBody } from "../http/json-body.ts";
import { describeBodyValue } from "../http/quote.ts";
import { requestKey } from "../http/request-keys.ts";
import { BASE, CHAIN_ID, chainHook, chainOf, JSON_TYPE } from "./request-parts.ts";

/** The SPV paths after `{base}/chain/{c}/`, each with its answer's form. */
const SPV_ANSWERS: Readonly<Record<string, (proof: string) => string>> = {
  "contract/api/v1/spv": (proof) => `{"spv":${jsonString(proof)}}`,
  "pact/spv": (proof) => jsonString(proof),
};
export const SPV_PATHS = Object.keys(SPV_ANSWERS);
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function registerSpvRoutes(
  app: FastifyInstance,
  { network, commands }: Pick<NodePorts, "network" | "commands">,
): void {
  const { chainCount } = network;
  for (const [path, answer] of Object.entries(SPV_ANSWERS)) {
    app.post(
      `${BASE}/chain/:chain/${path}`,
      { onRequest: chainHook(network) },
      (request, reply) => {
        const chainId = chainOf(network, request);
        const body = spvBody(bodyText(request.body, request.headers["content-type"]), chainCount);
        try {
          const proof = commands.spvProof(
            chainId,
            decodeBase64Url(body.requestKey),
            body.targetChainId,
          );
          return reply.type(JSON_TYPE).send(answer(proof));
        } catch (e) {
          if (e instanceof SpvRefusal) throw badRequest(e.message);
          throw e;
        }
      },
    );
  }
}

export interface SpvBody {
  readonly requestKey: string;
  readonly targetChainId: number;
}

/** Reads `{"requestKey", "targetChainId"}`; a 400 naming the field otherwise. */
export function spvBody(text: string, chainCount: number): SpvBody {
  const body = jsonObjectBody(text, '{"requestKey": key, "targetChainId": "chain"}');
  const key = body.requestKey;
  if (typeof key === "string" && key.length <= 128 && BASE64URL.test(key)) {
    // Chainweb's `validateRequestKey`: a well-formed key of the wrong length.
    const bytes = Math.floor((key.length * 3) / 4);
    if (bytes !== 32) {
      throw badRequest(`Request Key ${key} has incorrect hash of length ${bytes}`);
    }
  }
  const checked = requestKey(key, `"requestKey"`);
  const target = body.targetChainId;
  if (typeof target !== "string" || !CHAIN_ID.test(target) || Number(target) >= chainCount) {
    throw badRequest(
      `"targetChainId" must be a chain id of this network as a string ("0" to "${chainCount - 1}"), got ${describeBodyValue(target)}`,
    );
  }
  return { requestKey: checked, targetChainId: Number(target) };
}
