/**
 * Starting and stopping the development server: the service, the fastify app around it (JSON
 * bodies only, plain-text errors, CORS, the access log, the node's connection limits:
 * connections.ts), bound to the configured host and port.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Fastify from "fastify";
import { fileLogSink, type LogSink, logRequests, stdoutLogSink } from "../http/access-log.ts";
import { deadlineOptions, defaultConnectionLimits, limitConnections } from "../http/connections.ts";
import { allowCrossOrigin } from "../http/cors.ts";
import { acceptJsonBodiesOnly } from "../http/json-body.ts";
import { plainClientErrors, plainFrameworkErrors, sendPlainErrors } from "../http/plain-errors.ts";
import type { DevServerConfig } from "./config.ts";
import { ACCESS_LOG_FILE } from "./limits.ts";
import { registerRoutes } from "./routes.ts";
import { DevService } from "./service.ts";

export interface RunningDevServer {
  /** `http://host:port`, the base of `/api/v1/…`. */
  readonly url: string;
  readonly port: number;
  readonly service: DevService;
  /** Stops listening, ends open connections and closes the databases and the log. */
  close(): Promise<void>;
}

export interface DevServerOptions {
  /** Where the access log and verbose lines go instead of `logDir` or standard output. */
  readonly log?: LogSink;
}

export async function startDevServer(
  config: DevServerConfig,
  options: DevServerOptions = {},
): Promise<RunningDevServer> {
  for (const dir of [config.persistDir, config.logDir]) {
    if (dir !== null) mkdirSync(dir, { recursive: true });
  }
  const log =
    options.log ??
    (config.logDir === null ? stdoutLogSink() : fileLogSink(join(config.logDir, ACCESS_LOG_FILE)));
  const service = new DevService(config, log);
  try {
    await service.started();
  } catch (e) {
    await service.close();
    await log.close();
    throw e;
  }
  const limits = defaultConnectionLimits();
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    bodyLimit: config.bodyLimit,
    clientErrorHandler: plainClientErrors(),
    frameworkErrors: plainFrameworkErrors(),
    ...deadlineOptions(limits),
  });
  limitConnections(app.server, limits);
  acceptJsonBodiesOnly(app);
  sendPlainErrors(app, config.bodyLimit, (e) => log.line(`internal error: ${String(e)}`));
  allowCrossOrigin(app);
  logRequests(app, log);
  registerRoutes(app, service);
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (e) {
    await service.close();
    await log.close();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : config.port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    service,
    async close() {
      service.endListens();
      await app.close();
      await service.close();
      await log.close();
    },
  };
}
