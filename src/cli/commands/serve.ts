/**
 * `braid -s CONFIG`: the development server. Runs until stopped (SIGINT, SIGTERM or its output
 * closed: stop.ts), then closes its databases and log.
 */
import { ConfigError, parseDevServerConfig, startDevServer } from "../../api/devserver/index.ts";
import { listenError, UserError } from "../errors.ts";
import type { RootMode } from "../registry.ts";
import { untilStopped } from "../stop.ts";
import { escapeControls } from "../terminal-text.ts";

export const serveMode: RootMode = {
  flag: "-s/--serve",
  register(program) {
    program.option(
      "-s, --serve <config-file>",
      "start the development HTTP server with the given YAML configuration",
    );
  },
  selected: (options) => options.serve !== undefined,
  async run(options, _file, io) {
    const path = options.serve as string;
    let config: ReturnType<typeof parseDevServerConfig>;
    try {
      config = parseDevServerConfig(io.readFile(path), path);
    } catch (e) {
      if (e instanceof ConfigError) throw new UserError(e.message);
      throw e;
    }
    let server: Awaited<ReturnType<typeof startDevServer>>;
    try {
      server = await startDevServer(config);
    } catch (e) {
      throw listenError(e, config.host, config.port);
    }
    const state = config.persistDir === null ? "temporary" : `in ${config.persistDir}`;
    io.out(
      escapeControls(`Braid development server listening on ${server.url} (state ${state})\n`),
    );
    await untilStopped();
    await server.close();
  },
};
