/** The development server (`braid -s config.yaml`): Pact's local interpreter server endpoints. */
export { CONFIG_KEYS, ConfigError, type DevServerConfig, parseDevServerConfig } from "./config.ts";
export * from "./limits.ts";
export { type DevServerOptions, type RunningDevServer, startDevServer } from "./server.ts";
export { DevService, type LocalQuery } from "./service.ts";
export type { Check, CheckName, CheckOutcome, VerifyReport } from "./verify.ts";
