import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, parseDevServerConfig } from "./config.ts";

const PATH = "/srv/braid/config.yaml";

function fails(text: string, message: string): void {
  assert.throws(
    () => parseDevServerConfig(text, PATH),
    (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.equal(e.message, message);
      return true;
    },
  );
}

describe("parseDevServerConfig", () => {
  it("fills the defaults around the required port", () => {
    assert.deepEqual(parseDevServerConfig("port: 8080\n", PATH), {
      port: 8080,
      host: "127.0.0.1",
      persistDir: null,
      logDir: null,
      pragmas: [],
      entity: "entity",
      gasLimit: 0,
      gasRate: 0,
      flags: [],
      verbose: false,
      listenTimeoutSeconds: 180,
      commandHash: "blake2s",
      bodyLimit: 1_048_576,
      commandTimeLimitMs: 2_000,
    });
  });

  it("reads every key, with folders relative to the configuration file", () => {
    const text = [
      "port: 0",
      "host: 0.0.0.0",
      "persistDir: state",
      "logDir: /var/log/braid",
      "pragmas: [synchronous = FULL, cache_size = -2000]",
      "entity: bank",
      "gasLimit: 1000",
      "gasRate: 1",
      "flags: [DisablePactEvents]",
      "verbose: true",
      "listenTimeout: 2.5",
      "commandHash: blake2b",
      "bodyLimit: 4096",
      "commandTimeLimit: 500",
    ].join("\n");
    assert.deepEqual(parseDevServerConfig(text, PATH), {
      port: 0,
      host: "0.0.0.0",
      persistDir: "/srv/braid/state",
      logDir: "/var/log/braid",
      pragmas: ["synchronous = FULL", "cache_size = -2000"],
      entity: "bank",
      gasLimit: 1000,
      gasRate: 1,
      flags: ["DisablePactEvents"],
      verbose: true,
      listenTimeoutSeconds: 2.5,
      commandHash: "blake2b",
      bodyLimit: 4096,
      commandTimeLimitMs: 500,
    });
  });

  it("names an unknown key", () => {
    fails(
      "port: 1\nexecConfig: []\n",
      '/srv/braid/config.yaml: unknown key "execConfig"; the keys are port, host, persistDir, logDir, pragmas, entity, gasLimit, gasRate, flags, verbose, listenTimeout, commandHash, bodyLimit, commandTimeLimit',
    );
  });

  it("names a missing port and values of the wrong kind", () => {
    fails("verbose: true\n", '/srv/braid/config.yaml: the key "port" is required');
    fails(
      "port: 70000\n",
      "/srv/braid/config.yaml: port must be an integer from 0 to 65535, got 70000",
    );
    fails(
      "port: 1\nverbose: yes please\n",
      '/srv/braid/config.yaml: verbose must be true or false, got "yes please"',
    );
    fails(
      "port: 1\ngasLimit: -1\n",
      `/srv/braid/config.yaml: gasLimit must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got -1`,
    );
    fails(
      "port: 1\nlistenTimeout: 0\n",
      "/srv/braid/config.yaml: listenTimeout must be a number of seconds above 0 and at most 3600, got 0",
    );
    fails(
      "port: 1\ncommandHash: sha256\n",
      '/srv/braid/config.yaml: commandHash must be one of blake2s, blake2b, got "sha256"',
    );
    fails(
      "port: 1\nbodyLimit: 0\n",
      "/srv/braid/config.yaml: bodyLimit must be an integer from 1 to 67108864, got 0",
    );
    fails(
      "port: 1\ncommandTimeLimit: 60001\n",
      "/srv/braid/config.yaml: commandTimeLimit must be an integer from 1 to 60000, got 60001",
    );
    fails(
      "port: 1\nentity: ''\n",
      '/srv/braid/config.yaml: entity must be a non-empty string, got ""',
    );
  });

  it("names a bad pragma or flag by its position", () => {
    fails(
      "port: 1\npragmas: [journal_mode = WAL, 'x; DROP TABLE t']\n",
      '/srv/braid/config.yaml: pragmas[1] must be a pragma `name` or `name = value`, got "x; DROP TABLE t"',
    );
    assert.throws(
      () => parseDevServerConfig("port: 1\nflags: [NoSuchFlag]\n", PATH),
      /flags\[0\] must be one of DisableModuleInstall, .*, got "NoSuchFlag"$/,
    );
  });

  it("refuses YAML that is malformed or not a mapping", () => {
    assert.throws(
      () => parseDevServerConfig("port: [1\n", PATH),
      /^ConfigError: \/srv\/braid\/config\.yaml: invalid YAML: /,
    );
    fails(
      "- 1\n",
      "/srv/braid/config.yaml: the configuration must be a YAML mapping of keys to values",
    );
  });
});
