/**
 * The node's HTTP service: the Chainweb service API routes (routes.ts) on fastify, with JSON
 * bodies only, a body limit, plain-text errors (the HTTP parser's too), CORS and the common
 * response headers on every response, bounded connections (connections.ts), bound to the
 * configured address.
 */
import type { Socket } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import type { NodePorts } from "../../node/ports.ts";
import {
  type ConnectionLimits,
  deadlineOptions,
  defaultConnectionLimits,
  limitConnections,
} from "../http/connections.ts";
import { allowCrossOrigin } from "../http/cors.ts";
import { acceptJsonBodiesOnly } from "../http/json-body.ts";
import { plainClientErrors, plainFrameworkErrors, sendPlainErrors } from "../http/plain-errors.ts";
import type { P2PRouteParts } from "../p2p/p2p-routes.ts";
import { ContractApi } from "./contract-api.ts";
import { addCommonHeaders, commonHeaders } from "./headers.ts";
import { registerRoutes } from "./routes.ts";

export interface NodeServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly bodyLimit: number;
  readonly listenTimeoutSeconds: number;
  /** Serve the development controls even when `host` is not a loopback address (dev-guard.ts). */
  readonly devControls?: boolean;
  /** The connection limits; {@link defaultConnectionLimits} unless given (tests lower them). */
  readonly connections?: ConnectionLimits;
  /** A PEM certificate chain and key: served over HTTPS (the P2P API's `p2pCertificate`). */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** The P2P API's routes, served from the node's network (a node started by the CLI). */
  readonly p2p?: P2PRouteParts;
  /** Told of faults (5xx), which should never happen. */
  readonly onFault: (error: unknown) => void;
}

export interface RunningNodeServer {
  /** `http://host:port` */
  readonly url: string;
  readonly port: number;
  readonly contracts: ContractApi;
  /** Stops listening, ends open connections and waiting `listen` calls. */
  close(): Promise<void>;
}

export async function startNodeServer(
  node: NodePorts,
  options: NodeServerOptions,
): Promise<RunningNodeServer> {
  // maxParamLength: path parameters (hashes, chain ids) are checked by the routes, so an overlong
  // one gets their 400/404 instead of the router's JSON 414; Node's 16 KiB header limit bounds it.
  const limits = options.connections ?? defaultConnectionLimits();
  const headers = (socket: Socket) => commonHeaders(socket, node.clock);
  const tls = options.tls;
  const deadlines = deadlineOptions(limits);
  // Over HTTPS the server takes the HTTP server's options with the certificate. An HTTPS server
  // has the HTTP server's interface; fastify's types tie the instance's type to the `https`
  // option, which would make every route's types depend on this one setting, hence the cast.
  const app = (Fastify as (options: object) => FastifyInstance)({
    ...(tls === undefined ? {} : { https: { ...tls, ...deadlines.http } }),
    logger: false,
    forceCloseConnections: true,
    bodyLimit: options.bodyLimit,
    routerOptions: { maxParamLength: 16_384 },
    clientErrorHandler: plainClientErrors(headers),
    frameworkErrors: plainFrameworkErrors(headers),
    ...deadlines,
  });
  limitConnections(app.server, limits, headers);
  addCommonHeaders(app, node.clock);
  acceptJsonBodiesOnly(app);
  sendPlainErrors(app, options.bodyLimit, options.onFault);
  allowCrossOrigin(app);
  const contracts = new ContractApi(node, options.listenTimeoutSeconds * 1000);
  registerRoutes(
    app,
    node,
    contracts,
    { host: options.host, openedByFlag: options.devControls === true },
    options.p2p,
  );
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (e) {
    contracts.close();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `${tls === undefined ? "http" : "https"}://${host}:${port}`,
    port,
    contracts,
    async close() {
      contracts.close();
      await app.close();
    },
  };
}
