/**
 * `braid node`: runs a node with its HTTP service until stopped (SIGINT, SIGTERM or its output
 * closed: stop.ts), then closes the service and the databases. Options come from flags over
 * `--config node.yaml` over the defaults (options.ts defines each once; docs/node.md). On start it prints what a developer needs: the URL, the network,
 * the mining mode, where data lives, the configured peers and the funded accounts with their keys.
 */
import { isLoopbackHost } from "../../api/service/dev-guard.ts";
import { NodeOpenError, type RunningNode, startNode } from "../../app/start-node.ts";
import { makeLogger } from "../../node/logger.ts";
import {
  type NodeOptions,
  NodeOptionsError,
  optionFlags,
  parseOptionsYaml,
  type RawOptions,
  resolveNodeOptions,
} from "../../node/options.ts";
import { DEV_ACCOUNTS, type PeerAddress, peerKey } from "../../node/ports.ts";
import { certificateFingerprint } from "../../p2p/certificate.ts";
import { listenError, UserError } from "../errors.ts";
import type { CliIO } from "../io.ts";
import type { Subcommand } from "../registry.ts";
import { untilStopped } from "../stop.ts";

/** The flags given: `--config` and the options' own (options.ts), camel-cased by commander. */
type NodeFlags = RawOptions & { readonly config?: string };

export const nodeCommand: Subcommand = {
  register(program, io) {
    const command = program
      .command("node")
      .description("run a Braid node: 20 braided chains with the Chainweb service API")
      .option("--config <file>", "a YAML file of the options below (camelCase keys)");
    for (const { flags, help, repeatable } of optionFlags()) {
      if (repeatable)
        command.option(flags, help, (value: string, previous: string[] = []) => [
          ...previous,
          value,
        ]);
      else command.option(flags, help);
    }
    command.action(async (flags: NodeFlags) => {
      await runNode(nodeOptions(flags, io), io);
    });
  },
};

function nodeOptions(flags: NodeFlags, io: CliIO): NodeOptions {
  try {
    const file: RawOptions =
      flags.config === undefined ? {} : parseOptionsYaml(io.readFile(flags.config), flags.config);
    const { config: _config, ...given } = flags as Record<string, unknown>;
    // Commander names a value after its flag (`--peer`), the options after their keys (`peers`).
    const byKey: Record<string, unknown> = {};
    for (const { key, attribute } of optionFlags()) byKey[key] = given[attribute];
    return resolveNodeOptions(file, byKey as RawOptions);
  } catch (e) {
    if (e instanceof NodeOptionsError) throw new UserError(e.message);
    throw e;
  }
}

async function runNode(options: NodeOptions, io: CliIO): Promise<void> {
  const tls = readCertificate(options, io);
  const log = makeLogger(options.log.level, {
    write: (text: string) => io.out(text),
    isTTY: io.outIsTerminal,
  });
  const started = performance.now();
  let running: RunningNode;
  try {
    running = await startNode(options, log, {
      ...(tls === undefined ? {} : { tls }),
      onFault: (e) =>
        log.error(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
    });
  } catch (e) {
    if (e instanceof NodeOpenError) throw new UserError(`cannot open the node: ${e.message}`);
    throw listenError(e, options.api.host, options.api.port);
  }
  const readyMs = performance.now() - started;
  if (options.log.level === "debug" || options.log.level === "info") {
    io.out(banner(options, running, readyMs));
  }
  running.startNetwork();
  await untilStopped();
  await running.close();
}

function banner(options: NodeOptions, running: RunningNode, readyMs: number): string {
  const { node, announce } = running;
  const url = running.server.url;
  const base = `${url}/chainweb/0.0/${options.network}`;
  const lines = [
    `Braid node ready in ${Math.round(readyMs)} ms${node.fresh ? " (new network: genesis blocks made)" : ""}`,
    "",
    `  URL          ${url}`,
    `  API base     ${base}   (e.g. ${base}/chain/0/pact/api/v1/local)`,
    `  explorer     ${url}/   (blocks, transactions, accounts; docs/explorer.md)`,
    `  network id   ${options.network}`,
    `  genesis      ${options.genesis === null ? "Braid's own" : `chainweb-node's, from ${options.genesis}`}`,
    `  chains       ${node.ports.network.chainCount} (0 to ${node.ports.network.chainCount - 1})`,
    `  mining       ${options.mining.mode}${miningDetail(options)}`,
    `  data         ${options.storage.dataDir ?? "in memory (nothing is kept)"}`,
    `  miner        ${options.mining.miner.account}`,
    `  peers        ${peersText(options.p2p.peers, announce)}`,
    "",
    "Funded accounts on every chain (development keys, public on purpose: never use them elsewhere)",
    "",
  ];
  for (const account of DEV_ACCOUNTS) {
    lines.push(`  ${account.name}  ${account.balance} KDA`);
    lines.push(`    public ${account.publicKey}`);
    lines.push(`    secret ${account.secretKey}`);
  }
  lines.push(
    ...devControlsLines(options),
    "",
    "Blocks (chain, height, transactions, hash, mined here or from a peer), each followed by its",
    "transactions (request key, success or failure, gas, a failure's location and message):",
    "",
  );
  return `${lines.join("\n")}\n`;
}

/**
 * What the banner says of the development controls when the node listens beyond this machine:
 * a warning when `--dev-controls` opened them there, that they are off otherwise.
 */
function devControlsLines(options: NodeOptions): string[] {
  if (isLoopbackHost(options.api.host)) return [];
  if (!options.api.devControls) {
    return [
      "",
      `Development controls (braid dev, /braid/dev/…) are off: the node listens on ${options.api.host}, beyond this machine (--dev-controls opens them).`,
    ];
  }
  return [
    "",
    `WARNING: the development controls (/braid/dev/…) are open to everyone who can reach ${options.api.host}:`,
    "they can mine, move this node's clock forward for good, revert its chains and spend the faucet (--dev-controls).",
  ];
}

/** The certificate and key of `p2pCertificate` and `p2pKey`, read and checked; none for HTTP. */
function readCertificate(
  options: NodeOptions,
  io: CliIO,
): { readonly cert: string; readonly key: string } | undefined {
  const files = options.p2p.tls;
  if (files === null) return undefined;
  const read = (key: string, file: string) => {
    try {
      return io.readFile(file);
    } catch (e) {
      throw new UserError(
        `${key}: cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  };
  const tls = {
    cert: read("p2pCertificate", files.certificateFile),
    key: read("p2pKey", files.keyFile),
  };
  try {
    certificateFingerprint(tls.cert);
  } catch {
    throw new UserError(`p2pCertificate: ${files.certificateFile} is not a PEM certificate`);
  }
  return tls;
}

/** The banner's peers: the configured ones, or how another node joins this one. */
function peersText(peers: readonly PeerAddress[], announce: PeerAddress | null): string {
  if (peers.length > 0) return `${peers.map(peerKey).join(", ")}   (docs/network.md)`;
  const join =
    announce === null
      ? "--peer host:port adds one"
      : `others join with --peer ${peerKey(announce)}`;
  return `none (${join}; docs/network.md)`;
}

/** What the banner adds to the mining mode's name. */
function miningDetail(options: NodeOptions): string {
  if (options.mining.mode === "interval") return ` every ${options.mining.intervalSeconds} s`;
  if (options.mining.mode === "none") return " (blocks only from braid dev mine)";
  return "";
}
