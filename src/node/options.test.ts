import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { DEV_ACCOUNTS } from "./genesis/accounts.ts";
import {
  DEVNET_MINER,
  defaultExecutionThreads,
  NodeOptionsError,
  OPTION_KEYS,
  optionFlags,
  optionsTableMarkdown,
  parseOptionsYaml,
  type RawOptions,
  resolveNodeOptions,
} from "./options.ts";

describe("node options", () => {
  it("defaults to a development node on 127.0.0.1:8080 with on-demand mining in ./.braid/development", () => {
    const options = resolveNodeOptions({}, {}, "/work/project");
    assert.deepEqual(options, {
      network: "development",
      genesis: null,
      api: {
        port: 8080,
        host: "127.0.0.1",
        listenTimeoutSeconds: 180,
        bodyLimit: 2_000_000,
        devControls: false,
      },
      storage: { dataDir: "/work/project/.braid/development" },
      mining: { mode: "on-demand", intervalSeconds: 30, miner: DEVNET_MINER },
      mempool: {
        blockGasLimit: 150_000,
        minGasPrice: "0.00000001",
        entityKeys: [DEV_ACCOUNTS[0]!.publicKey],
      },
      execution: {
        commandTimeLimitMs: 100,
        executionThreads: defaultExecutionThreads(),
        localTimeLimitMs: 2_000,
        blockCommandTimeLimitMs: 1_875,
      },
      p2p: {
        peers: [],
        announce: undefined,
        maxPeers: 32,
        requirePow: false,
        tls: null,
      },
      log: { level: "info" },
    });
  });

  it("takes flags over the file, and numbers given as text", () => {
    const file = parseOptionsYaml("port: 9000\nmining: interval\nminingInterval: 5\n", "n.yaml");
    const options = resolveNodeOptions(file, { port: "9100", inMemory: true }, "/x");
    assert.equal(options.api.port, 9100);
    assert.equal(options.mining.mode, "interval");
    assert.equal(options.mining.intervalSeconds, 5);
    assert.equal(options.storage.dataDir, null);
  });

  it("reads genesis, a folder relative to the working directory, from the file or the flag", () => {
    const file = parseOptionsYaml("genesis: ../chainweb-genesis\n", "n.yaml");
    assert.equal(resolveNodeOptions(file, {}, "/x/y").genesis, "/x/chainweb-genesis");
    assert.equal(resolveNodeOptions(file, { genesis: "/g" }, "/x/y").genesis, "/g");
  });

  it("reads a gas price written as a YAML number", () => {
    const file = parseOptionsYaml("minGasPrice: 1e-8\n", "n.yaml");
    assert.equal(resolveNodeOptions(file, {}).mempool.minGasPrice, "0.00000001");
  });

  it("reads the entity's keys from a flag or a YAML list, in lowercase; none turns private off", () => {
    const [a, b] = ["AB".repeat(32), "cd".repeat(32)];
    const entityKeys = (raw: Record<string, unknown>) =>
      resolveNodeOptions({}, raw).mempool.entityKeys;
    assert.deepEqual(entityKeys({ entityKeys: `${a}, ${b}` }), [a.toLowerCase(), b]);
    const file = parseOptionsYaml(`entityKeys:\n  - ${b}\n`, "n.yaml");
    assert.deepEqual(resolveNodeOptions(file, {}).mempool.entityKeys, [b]);
    assert.deepEqual(entityKeys({ entityKeys: "none" }), []);
  });

  it("names the key of every bad value", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ port: 70000 }, "port must be an integer from 0 to 65535, got 70000"],
      [{ mining: "fast" }, 'mining must be one of on-demand, interval, pow, none, got "fast"'],
      [{ network: "mainnet01" }, 'network must be one of development, got "mainnet01"'],
      [{ blockGasLimit: 0 }, "blockGasLimit must be an integer from 1 to 10000000, got 0"],
      [
        { minGasPrice: "0.0000000000001" },
        'minGasPrice must be a decimal above 0 with at most 12 decimal places, got "0.0000000000001"',
      ],
      [{ logLevel: "loud" }, 'logLevel must be one of debug, info, warn, error, got "loud"'],
      [
        { minerKeys: "abc", minerAccount: "m" },
        'minerKeys[0] must be a public key of 64 hex digits, got "abc"',
      ],
      [{ minerAccount: "m" }, "minerAccount and minerKeys must be given together"],
      [{ entityKeys: "ab" }, 'entityKeys[0] must be a public key of 64 hex digits, got "ab"'],
      [{ inMemory: true, dataDir: "d" }, "inMemory and dataDir cannot be used together"],
    ];
    for (const [raw, message] of cases) {
      assert.throws(() => resolveNodeOptions(raw, {}), new NodeOptionsError(message));
    }
  });

  it("refuses an unknown key in the file, naming the known ones", () => {
    assert.throws(
      () => parseOptionsYaml("prot: 1\n", "node.yaml"),
      /^NodeOptionsError: node.yaml: unknown key "prot"; the keys are port, host, network/,
    );
  });
});

describe("the options' one definition", () => {
  it("gives the flags, kebab-cased keys, and leaves out the YAML-only ones", () => {
    const flags = optionFlags().map((f) => f.flags);
    assert.equal(flags.length, OPTION_KEYS.length - 2, "network and bodyLimit are YAML only");
    assert.deepEqual(flags.slice(0, 5), [
      "--port <port>",
      "--host <address>",
      "--genesis <path>",
      "--data-dir <dir>",
      "--in-memory",
    ]);
    assert.ok(flags.includes("--block-gas-limit <gas>"));
  });

  it("is the table docs/node.md shows", () => {
    const docs = readFileSync(new URL("../../docs/node.md", import.meta.url), "utf8");
    assert.ok(docs.includes(`${optionsTableMarkdown()}\n`), "docs/node.md's options table");
  });

  it("names defaults the reader applies", () => {
    const options = resolveNodeOptions({}, {}, "/tmp");
    assert.equal(options.api.port, 8080);
    assert.equal(options.mining.mode, "on-demand");
    assert.equal(options.mempool.blockGasLimit, 150_000);
    assert.equal(options.api.listenTimeoutSeconds, 180);
    assert.match(optionsTableMarkdown(), /\| `port` \| `--port` \| api \| 8080 \|/);
    assert.match(
      optionsTableMarkdown(),
      /\| `blockGasLimit` \| `--block-gas-limit` \| mempool \| 150,000 \|/,
    );
  });
});

describe("the P2P options", () => {
  it("takes repeated peers, an announced address and pow checking on in pow mode", () => {
    const options = resolveNodeOptions(
      { peers: ["10.0.0.2:1789", "[fd00::3]:80"], mining: "pow" },
      { announce: "node-a.test:8080", maxPeers: "5" },
      "/work/project",
    );
    assert.deepEqual(options.p2p, {
      peers: [
        { hostname: "10.0.0.2", port: 1789 },
        { hostname: "fd00::3", port: 80 },
      ],
      announce: { hostname: "node-a.test", port: 8080 },
      maxPeers: 5,
      requirePow: true,
      tls: null,
    });
  });

  it("refuses a bad value naming its key", () => {
    const fails = (raw: RawOptions, message: string) =>
      assert.throws(() => resolveNodeOptions(raw, {}), { message });
    fails(
      { peers: ["10.0.0.2"] },
      'peers[0] must be host:port ("10.0.0.2" is not host:port), got "10.0.0.2"',
    );
    fails(
      { peers: ["a:70000"] },
      'peers[0] must be host:port (the port 70000 is not between 1 and 65535), got "a:70000"',
    );
    fails({ announce: 80 }, "announce must be host:port, got 80");
    fails({ maxPeers: 0 }, "maxPeers must be an integer from 1 to 1000, got 0");
    fails({ requirePow: "yes" }, 'requirePow must be true or false, got "yes"');
    fails({ p2pKey: "key.pem" }, "p2pCertificate and p2pKey must be given together");
  });
});
