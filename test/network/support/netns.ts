/**
 * A test network of Linux network namespaces: one namespace per host, each with a veth pair whose
 * other end is a port of a bridge in the network's own hub namespace, and an address in a private
 * subnet (`10.77.N.0/24`) that exists only inside these namespaces: nothing is added to, or
 * changed in, the root namespace. Faults are made with the real tools: `nft` rules in the hosts'
 * namespaces for partitions, `tc` qdiscs on a host's link for slow links; `kill -9` of a node is
 * the node's own (`net-node.ts`). The test process reaches the hosts through the hub's relay
 * (`hub-relay.ts`, `reach.ts`), so its `fetch` uses the same URLs as the nodes themselves.
 *
 * Namespace names carry a prefix and the test process's id, so parallel runs never collide; the
 * namespaces and temporary directories of a run whose process is gone (killed) are removed when
 * the next network is made.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { skipOrRequire } from "../../../src/chain/test-support/skip-or-require.ts";
import { type SupervisedProcess, supervise } from "../../support/supervised-process.ts";
import { type NetNode, type NetNodeOptions, startNetNode } from "./net-node.ts";
import { routeThroughRelay, stopRouting } from "./reach.ts";

/** The start of every namespace name the harness makes: `braidnet-PID-SEQ-HOST`. */
export const NAMESPACE_PREFIX = "braidnet";
/** The first two bytes of every test network's subnet; the third is the network's number. */
const SUBNET_BASE = "10.77";
/** The hub's own address in the subnet (hosts get 1, 2, 3, … in order). */
const HUB_HOST_BYTE = 254;
/** Host names: short, since the hub's end of a host's link is named `p-NAME` (at most 15 bytes). */
const HOST_NAME = /^[a-z][a-z0-9]{0,7}$/;
const MAX_HOSTS = 200;
/** Networks one test process may make over its life (the third byte of their subnets). */
const MAX_NETWORKS = 250;
/** The longest any one `ip`, `nft` or `tc` command may take. */
const COMMAND_TIMEOUT_MS = 10_000;
/** How long the hub relay may take to listen. */
const RELAY_START_TIMEOUT_MS = 10_000;
/** The nft table a partition adds to each host on either side (dropped again by heal()). */
const FAULT_TABLE = "braid_faults";
/** tbf's queue, as the time a packet may wait in it before being dropped. */
const TBF_LATENCY_MS = 500;
/** tbf's smallest bucket: a few full-size packets, whatever the rate. */
const TBF_MIN_BURST_BYTES = 4096;
/** The qdisc the capability probe adds, to see that tc works in a namespace. */
const PROBE_TBF = ["tbf", "rate", "1mbit", "burst", "4kb", "latency", "50ms"];
const BRIDGE = "br0";
const HOST_LINK = "eth0";

const RELAY_SCRIPT = fileURLToPath(new URL("./hub-relay.ts", import.meta.url));
const TSX = import.meta.resolve("tsx");

/** One host of a test network. */
export interface NetHost {
  readonly name: string;
  /** Its network namespace (`ip netns exec NAMESPACE …`). */
  readonly namespace: string;
  /** Its address, e.g. `10.77.0.1`. */
  readonly address: string;
}

/** How a link is slowed: a rate, a delay each way, or both. */
export interface SlowLinkOptions {
  readonly rateKbit?: number;
  readonly delayMs?: number;
}

/** slowLink() with a delay where the kernel has no netem qdisc (tbf, for a rate alone, is there). */
export class NetemUnavailable extends Error {
  constructor() {
    super(
      "tc's netem qdisc is not in this kernel (CONFIG_NET_SCH_NETEM), so a link cannot be delayed; a rate alone works (tbf)",
    );
  }
}

/** A command that failed: its command line and stderr in the message, the stderr alone too. */
class CommandFailed extends Error {
  constructor(
    commandLine: string,
    readonly stderr: string,
  ) {
    super(`${commandLine}: ${stderr}`);
  }
}

/** Runs a command to its end; rejects with a {@link CommandFailed} when it fails. */
function run(file: string, args: readonly string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      { timeout: COMMAND_TIMEOUT_MS, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        if (error === null) resolve(stdout);
        else reject(new CommandFailed(`${file} ${args.join(" ")}`, stderr.trim() || error.message));
      },
    );
    // A command that fails early may not read its input: the error it reports is the one to see.
    child.stdin!.on("error", () => {});
    child.stdin!.end(input);
  });
}

/** `ip -n NAMESPACE ARGS…` */
function ipIn(namespace: string, ...args: string[]): Promise<string> {
  return run("ip", ["-n", namespace, ...args]);
}

/** Starts `node --import tsx SCRIPT ARGS…` inside `namespace`; its output is kept. */
function startScriptIn(
  namespace: string,
  script: string,
  args: readonly string[],
): SupervisedProcess {
  const command = [process.execPath, "--import", TSX, script, ...args];
  const child = spawn("ip", ["netns", "exec", namespace, ...command], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return supervise(child, basename(script));
}

/** The same, synchronously, for teardown while the process exits; failures are ignored. */
function runQuietly(file: string, args: readonly string[]): string {
  try {
    return execFileSync(file, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return "";
  }
}

/** Kills whatever still runs in a namespace (processes this harness started), then deletes it. */
function deleteNamespaceSync(namespace: string): void {
  for (const pid of runQuietly("ip", ["netns", "pids", namespace]).split("\n")) {
    if (pid === "") continue;
    try {
      process.kill(Number(pid), "SIGKILL");
    } catch {
      // Gone already.
    }
  }
  runQuietly("ip", ["netns", "delete", namespace]);
}

/** The namespaces of this harness now present. */
function harnessNamespaces(): string[] {
  return runQuietly("ip", ["netns", "list"])
    .split("\n")
    .map((line) => line.split(" ")[0]!)
    .filter((name) => name.startsWith(`${NAMESPACE_PREFIX}-`));
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The test process that made a namespace or temporary directory of the harness. */
function makerOf(name: string): number {
  return Number(name.split("-")[1]);
}

/**
 * Removes the namespaces, and the temporary directories, left by earlier runs of the harness
 * whose process has gone.
 */
function removeLeftovers(): void {
  for (const namespace of harnessNamespaces()) {
    if (!processAlive(makerOf(namespace))) deleteNamespaceSync(namespace);
  }
  for (const name of readdirSync(tmpdir())) {
    if (name.startsWith(`${NAMESPACE_PREFIX}-`) && !processAlive(makerOf(name))) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

let probed: string | undefined | null = null;

/**
 * Why this machine cannot make test networks (one line), or undefined when it can: Linux, root,
 * `ip`, `tc` and `nft`, and a namespace with a veth pair, an nft table and a tbf qdisc made for
 * real and removed again.
 */
export function networkUnavailable(): string | undefined {
  if (probed !== null) return probed;
  probed = probe();
  return probed;
}

function probe(): string | undefined {
  if (process.platform !== "linux") return "network namespaces need Linux";
  if (process.getuid?.() !== 0) return "making network namespaces needs root";
  const tools: [string, string, string][] = [
    ["ip", "-V", "iproute2"],
    ["tc", "-V", "iproute2"],
    ["nft", "-v", "nftables"],
  ];
  for (const [tool, versionFlag, debianPackage] of tools) {
    try {
      execFileSync(tool, [versionFlag], { stdio: "ignore" });
    } catch {
      return `${tool} is not installed (Debian package ${debianPackage})`;
    }
  }
  const namespace = `${NAMESPACE_PREFIX}-${process.pid}-probe`;
  const steps = [
    ["ip", "netns", "add", namespace],
    ["ip", "-n", namespace, "link", "add", "probe0", "type", "veth", "peer", "name", "probe1"],
    ["ip", "netns", "exec", namespace, "nft", "add", "table", "inet", FAULT_TABLE],
    ["tc", "-n", namespace, "qdisc", "add", "dev", "probe0", "root", ...PROBE_TBF],
  ];
  try {
    for (const [file, ...args] of steps) {
      try {
        execFileSync(file!, args, { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
      } catch (e) {
        const stderr = String((e as { stderr?: string }).stderr ?? "").trim();
        return `\`${file} ${args.join(" ")}\` failed: ${stderr.split("\n")[0] || String(e)}`;
      }
    }
    return undefined;
  } finally {
    deleteNamespaceSync(namespace);
  }
}

/**
 * For `describe(…, { skip: networkTestSkip() }, …)`: false where test networks can be made, else
 * the one-line reason the tests are skipped; throws instead when `BRAID_NETWORK_TESTS=required`
 * (CI, `.ci/run`), so that a machine that cannot run them fails rather than skips.
 */
export function networkTestSkip(): string | false {
  const reason = networkUnavailable();
  return skipOrRequire(
    reason === undefined ? undefined : `no test networks on this machine: ${reason}`,
    process.env["BRAID_NETWORK_TESTS"] === "required"
      ? "the network tests are required here (BRAID_NETWORK_TESTS=required)"
      : undefined,
  );
}

/** The networks not closed yet, torn down when the process exits or is interrupted. */
const openNetworks = new Set<TestNetwork>();
let networksMade = 0;

function tearDownOpenNetworks(): void {
  for (const network of openNetworks) network.tearDownSync();
}
process.once("exit", tearDownOpenNetworks);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    tearDownOpenNetworks();
    process.kill(process.pid, signal);
  });
}

/** A network of hosts, each in its own namespace, joined by a bridge in the hub namespace. */
export class TestNetwork {
  readonly #hosts: ReadonlyMap<string, NetHost>;
  readonly #hub: string;
  readonly #subnet: string;
  readonly #dir: string;
  readonly #nodes = new Set<NetNode>();
  readonly #partitioned = new Set<string>();
  readonly #slowed = new Set<string>();
  readonly #scripts = new Set<SupervisedProcess>();
  #relay: SupervisedProcess | undefined;

  private constructor(hostNames: readonly string[]) {
    const number = networksMade++;
    if (number >= MAX_NETWORKS) throw new Error(`at most ${MAX_NETWORKS} networks per process`);
    const base = `${NAMESPACE_PREFIX}-${process.pid}-${number}`;
    this.#subnet = `${SUBNET_BASE}.${number}.`;
    this.#hub = `${base}-hub`;
    this.#hosts = new Map(
      hostNames.map((name, i) => [
        name,
        { name, namespace: `${base}-${name}`, address: `${this.#subnet}${i + 1}` },
      ]),
    );
    this.#dir = mkdtempSync(join(tmpdir(), `${base}-`));
  }

  /**
   * Makes the namespaces of `hostNames` (lower-case letters and digits, at most 8) and of their
   * hub, links them and starts the hub relay. Rejects, leaving nothing behind, when that fails.
   */
  static async create(hostNames: readonly string[]): Promise<TestNetwork> {
    for (const name of hostNames) {
      if (!HOST_NAME.test(name)) throw new Error(`bad host name ${JSON.stringify(name)}`);
    }
    if (new Set(hostNames).size !== hostNames.length) throw new Error("host names repeat");
    if (hostNames.length === 0 || hostNames.length > MAX_HOSTS) {
      throw new Error(`a test network has 1 to ${MAX_HOSTS} hosts`);
    }
    removeLeftovers();
    const network = new TestNetwork(hostNames);
    openNetworks.add(network);
    try {
      await network.#build();
    } catch (e) {
      await network.close();
      throw e;
    }
    return network;
  }

  async #build(): Promise<void> {
    const hub = this.#hub;
    const hosts = [...this.#hosts.values()];
    await Promise.all(
      [hub, ...hosts.map((h) => h.namespace)].map((ns) => run("ip", ["netns", "add", ns])),
    );
    await ipIn(hub, "link", "add", BRIDGE, "type", "bridge");
    await ipIn(hub, "addr", "add", `${this.#subnet}${HUB_HOST_BYTE}/24`, "dev", BRIDGE);
    await ipIn(hub, "link", "set", BRIDGE, "up");
    await Promise.all(
      hosts.map(async (host) => {
        const port = hubPort(host);
        const peer = ["peer", "name", HOST_LINK, "netns", host.namespace];
        await ipIn(hub, "link", "add", port, "type", "veth", ...peer);
        await ipIn(hub, "link", "set", port, "master", BRIDGE, "up");
        await ipIn(host.namespace, "addr", "add", `${host.address}/24`, "dev", HOST_LINK);
        await ipIn(host.namespace, "link", "set", HOST_LINK, "up");
        await ipIn(host.namespace, "link", "set", "lo", "up");
      }),
    );
    await this.#startRelay();
  }

  async #startRelay(): Promise<void> {
    const socketPath = join(this.#dir, "relay.sock");
    this.#relay = startScriptIn(this.#hub, RELAY_SCRIPT, [socketPath, this.#subnet]);
    await this.#relay.waitForOutput(/^relay ready$/, RELAY_START_TIMEOUT_MS);
    routeThroughRelay(this.#subnet, socketPath);
  }

  /** The host named `name`. */
  host(name: string): NetHost {
    const host = this.#hosts.get(name);
    if (host === undefined) throw new Error(`no host ${JSON.stringify(name)} in this network`);
    return host;
  }

  /** Every namespace of the network, the hub's included. */
  namespaces(): string[] {
    return [this.#hub, ...[...this.#hosts.values()].map((h) => h.namespace)];
  }

  /** Runs `file args…` inside `host`'s namespace to its end; resolves with its stdout. */
  exec(host: string, file: string, args: readonly string[]): Promise<string> {
    return run("ip", ["netns", "exec", this.host(host).namespace, file, ...args]);
  }

  /**
   * GETs `url` from inside `host`'s namespace (a `node` process there) and resolves with the
   * status; rejects when no answer came within `timeoutMs`, or the connection failed.
   */
  async fetchFrom(host: string, url: string, timeoutMs: number): Promise<number> {
    // It exits at once: a connection still trying after the abort would keep it alive.
    const script =
      "fetch(process.argv[1], { signal: AbortSignal.timeout(Number(process.argv[2])) })" +
      ".then(async (r) => { await r.arrayBuffer(); console.log(r.status); process.exit(0); })" +
      ".catch((e) => { console.error(String(e.cause ?? e)); process.exit(1); });";
    try {
      const status = await this.exec(host, process.execPath, [
        "-e",
        script,
        url,
        String(timeoutMs),
      ]);
      return Number(status.trim());
    } catch (e) {
      throw e instanceof CommandFailed ? new Error(`GET ${url} from ${host}: ${e.stderr}`) : e;
    }
  }

  /**
   * Starts a script of the tests (`node --import tsx SCRIPT ARGS…`, the sources through tsx)
   * inside `host`'s namespace, e.g. a peer that is not a Braid node; it is killed by close(). The
   * script learns where to listen from its arguments (`net.host(host).address`), and tells the
   * test what it does through its output.
   */
  startScript(host: string, script: string, args: readonly string[]): SupervisedProcess {
    const started = startScriptIn(this.host(host).namespace, script, args);
    this.#scripts.add(started);
    return started;
  }

  /**
   * Starts `braid node` (the built CLI) inside `host`'s namespace, listening on the host's
   * address; resolves once it serves.
   */
  async startNode(host: string, options: NetNodeOptions = {}): Promise<NetNode> {
    const { namespace, address } = this.host(host);
    const node = await startNetNode(host, namespace, address, this.#dir, options);
    this.#nodes.add(node);
    return node;
  }

  /**
   * Cuts every host of `groupA` off from every host of `groupB`, both ways: nft rules in each
   * host's namespace drop the packets to and from the other side's addresses (connections under
   * way stall, new ones time out). The hub (and so the test process) still reaches everyone.
   * Partitions add up until heal().
   */
  async partition(groupA: readonly string[], groupB: readonly string[]): Promise<void> {
    const a = groupA.map((name) => this.host(name));
    const b = groupB.map((name) => this.host(name));
    if (a.some((host) => b.includes(host))) throw new Error("a host on both sides of a partition");
    await Promise.all([
      ...a.map((host) => this.#dropTraffic(host, b)),
      ...b.map((host) => this.#dropTraffic(host, a)),
    ]);
  }

  async #dropTraffic(host: NetHost, others: readonly NetHost[]): Promise<void> {
    const addresses = `{ ${others.map((h) => h.address).join(", ")} }`;
    const rules = [
      `table inet ${FAULT_TABLE} {`,
      "  chain input { type filter hook input priority filter; policy accept; }",
      "  chain output { type filter hook output priority filter; policy accept; }",
      "}",
      `add rule inet ${FAULT_TABLE} input ip saddr ${addresses} drop`,
      `add rule inet ${FAULT_TABLE} output ip daddr ${addresses} drop`,
      "",
    ].join("\n");
    this.#partitioned.add(host.name);
    await run("ip", ["netns", "exec", host.namespace, "nft", "-f", "-"], rules);
  }

  /** Ends every partition: removes the nft table from every host that has one. */
  async heal(): Promise<void> {
    const hosts = [...this.#partitioned].map((name) => this.host(name));
    this.#partitioned.clear();
    await Promise.all(
      hosts.map((host) =>
        run("ip", ["netns", "exec", host.namespace, "nft", "delete", "table", "inet", FAULT_TABLE]),
      ),
    );
  }

  /**
   * Slows `host`'s link both ways (the host's end and the hub's end): a rate alone with tbf, a
   * delay (with or without a rate) with netem, which some kernels lack ({@link NetemUnavailable}).
   */
  async slowLink(host: string, options: SlowLinkOptions): Promise<void> {
    const ends = this.#linkEnds(this.host(host));
    const qdisc = slowQdisc(options);
    try {
      await Promise.all(
        ends.map(([namespace, dev]) =>
          run("tc", ["-n", namespace, "qdisc", "replace", "dev", dev, "root", ...qdisc]),
        ),
      );
    } catch (e) {
      if (options.delayMs !== undefined && /unknown/i.test(String(e))) throw new NetemUnavailable();
      throw e;
    }
    this.#slowed.add(host);
  }

  /** Gives `host`'s link its full speed back. */
  async clearSlowLink(host: string): Promise<void> {
    if (!this.#slowed.delete(host)) return;
    await Promise.all(
      this.#linkEnds(this.host(host)).map(([namespace, dev]) =>
        run("tc", ["-n", namespace, "qdisc", "del", "dev", dev, "root"]),
      ),
    );
  }

  /** Both ends of a host's link: [namespace, device]. */
  #linkEnds(host: NetHost): [string, string][] {
    return [
      [host.namespace, HOST_LINK],
      [this.#hub, hubPort(host)],
    ];
  }

  /** Kills the nodes, the scripts and the relay, deletes every namespace (and with them the links and nft tables) and the temporary files. */
  async close(): Promise<void> {
    await Promise.all([
      ...[...this.#nodes].map((node) => node.kill9()),
      ...[...this.#scripts].map((script) => script.kill()),
    ]);
    this.tearDownSync();
  }

  /** close() for when there is no time to wait: what still runs is killed at once. */
  tearDownSync(): void {
    openNetworks.delete(this);
    stopRouting(this.#subnet);
    this.#relay?.child.kill("SIGKILL");
    for (const namespace of this.namespaces()) deleteNamespaceSync(namespace);
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

/** The qdisc (`tc qdisc replace … root QDISC…`) of a slow link. */
function slowQdisc({ rateKbit, delayMs }: SlowLinkOptions): string[] {
  for (const value of [rateKbit, delayMs]) {
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new Error(`slowLink: ${value} is not a positive whole number`);
    }
  }
  const rate = rateKbit === undefined ? [] : ["rate", `${rateKbit}kbit`];
  if (delayMs !== undefined) return ["netem", "delay", `${delayMs}ms`, ...rate];
  if (rateKbit === undefined) throw new Error("slowLink: neither a rate nor a delay");
  // At least 10 ms worth of the rate: tbf needs a bucket of rate / HZ, and HZ may be 100.
  const burst = Math.max(TBF_MIN_BURST_BYTES, Math.ceil((rateKbit * 1000) / 8 / 100));
  return ["tbf", ...rate, "burst", String(burst), "latency", `${TBF_LATENCY_MS}ms`];
}

/** The hub's end of a host's link, a port of the bridge. */
function hubPort(host: NetHost): string {
  return `p-${host.name}`;
}
