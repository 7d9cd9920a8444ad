/**
 * Issue 24, item 8 (the command line): careless or hostile inputs end `braid` with one line
 * naming the problem and a non-zero exit code, never a stack trace or a silent wrong result: a
 * host name that does not resolve, a YAML alias bomb as the node's or the development server's
 * configuration, and a device as a request's `codeFile`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type BraidRun, runBraid } from "../support/braid-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "braid-hostile-cli-"));

/** Nine anchors, each aliasing the one before nine times: 9^7 nodes once expanded. */
const ALIAS_BOMB = `${["a", "b", "c", "d", "e", "f", "g"]
  .map((name, i, names) =>
    i === 0
      ? `${name}: &${name} ["x","x","x","x","x","x","x","x","x"]`
      : `${name}: &${name} [${Array(9)
          .fill(`*${names[i - 1]}`)
          .join(",")}]`,
  )
  .join("\n")}\nport: 0\n`;

function assertOneLineRefusal(run: BraidRun, message: RegExp) {
  assert.notEqual(run.code, 0);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, message);
  assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
}

describe("braid on hostile inputs", () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("node --host naming no address: one line, exit code 1", () => {
    const run = runBraid(dir, ["node", "--in-memory", "--host", "nonexistent.invalid"]);
    assertOneLineRefusal(
      run,
      /^braid: cannot listen on nonexistent\.invalid:8080: the host name does not resolve to an address \((ENOTFOUND|EAI_AGAIN)\)\n$/,
    );
  });

  it("a YAML alias bomb as the development server's configuration: one line", () => {
    writeFileSync(join(dir, "bomb.yaml"), ALIAS_BOMB);
    const run = runBraid(dir, ["-s", "bomb.yaml"]);
    assertOneLineRefusal(run, /^braid: bomb\.yaml: YAML aliases expand beyond the limit of 100\n$/);
  });

  it("a YAML alias bomb as the node's configuration: one line", () => {
    writeFileSync(join(dir, "bomb.yaml"), ALIAS_BOMB);
    const run = runBraid(dir, ["node", "--in-memory", "--config", "bomb.yaml"]);
    assertOneLineRefusal(run, /^braid: bomb\.yaml: YAML aliases expand beyond the limit of 100\n$/);
  });

  it("a device as a request's codeFile: one line, not empty code", () => {
    writeFileSync(
      join(dir, "request.yaml"),
      "codeFile: /dev/zero\nsigners:\n  - public: 368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca\n",
    );
    const run = runBraid(dir, ["-u", "request.yaml"]);
    assertOneLineRefusal(
      run,
      /^braid: cannot read \/dev\/zero: it is not a regular file \(a device or socket\)\n$/,
    );
  });
});
