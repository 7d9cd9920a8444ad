import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import Database from "better-sqlite3";
import { makeLogger } from "./logger.ts";
import { JOURNAL_FILE, MempoolJournal } from "./mempool-journal.ts";
import { BraidNode } from "./node.ts";
import { resolveNodeOptions } from "./options.ts";
import { devCommand, GAS_CAP } from "./test-support/dev-node.ts";

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "braid-journal-"));
  dirs.push(dir);
  return dir;
}

const command = (nonce: string, chainId = "0") =>
  devCommand({ code: "(+ 1 2)", caps: [GAS_CAP], nonce, chainId });

function openJournal(path: string) {
  const told: string[] = [];
  const opened = MempoolJournal.open(path, {
    onUnreadable: (message) => told.push(message),
    onReleaseFailure: (e) => told.push(String(e)),
  });
  return { ...opened, told };
}

/** What a journal at `path` holds, as `chain:hash` in order (opened and closed again). */
function held(path: string): string[] {
  const { journal, contents } = openJournal(path);
  journal.close();
  return contents.entries.map((e) => `${e.chainId}:${e.command.hash}`);
}

describe("the mempool journal", () => {
  it("gives back the commands kept, in the order accepted, with their chains", () => {
    const path = join(tempDir(), JOURNAL_FILE);
    const [a, b, c] = [command("a"), command("b"), command("c", "3")];
    const { journal, contents } = openJournal(path);
    assert.deepEqual(contents, { entries: [], unreadable: 0 });
    journal.keeperOf(0).keep([a, b]);
    journal.keeperOf(3).keep([c]);
    journal.keeperOf(0).keep([a]);
    assert.equal(journal.size, 3);
    journal.close();
    const reopened = openJournal(path);
    reopened.journal.close();
    assert.deepEqual(
      reopened.contents.entries.map((e) => [e.chainId, e.command.hash, e.command.cmd]),
      [
        [0, a.hash, a.cmd],
        [0, b.hash, b.cmd],
        [3, c.hash, c.cmd],
      ],
    );
    assert.deepEqual(reopened.told, []);
  });

  it("forgets the commands released", () => {
    const path = join(tempDir(), JOURNAL_FILE);
    const [a, b, c] = [command("a"), command("b"), command("c")];
    const { journal } = openJournal(path);
    journal.keeperOf(0).keep([a, b, c]);
    journal.keeperOf(0).release([b.hash, "not-kept"]);
    assert.equal(journal.size, 2);
    journal.close();
    assert.deepEqual(held(path), [`0:${a.hash}`, `0:${c.hash}`]);
  });

  it("moves an unreadable file aside, says so, and starts a new journal", () => {
    const dir = tempDir();
    const path = join(dir, JOURNAL_FILE);
    writeFileSync(path, "this is not a database, it is sixty-four bytes of damaged text..\n");
    const { journal, contents, told } = openJournal(path);
    assert.deepEqual(contents, { entries: [], unreadable: 0 });
    assert.equal(told.length, 1);
    assert.match(
      told[0]!,
      /^the mempool journal .*mempool-journal\.sqlite is unreadable \(file is not a database\): moved to .*mempool-journal\.sqlite\.unreadable-[0-9T.Z-]+; the commands it held are not taken back, and a new journal is started$/,
    );
    const aside = readdirSync(dir).filter((name) => name.includes(".unreadable-"));
    assert.equal(aside.length, 1);
    assert.match(readFileSync(join(dir, aside[0]!), "utf8"), /^this is not a database/);
    const a = command("a");
    journal.keeperOf(0).keep([a]);
    journal.close();
    assert.deepEqual(held(path), [`0:${a.hash}`]);
  });

  it("drops and counts a row whose command does not parse", () => {
    const path = join(tempDir(), JOURNAL_FILE);
    const [a, b] = [command("a"), command("b")];
    const { journal } = openJournal(path);
    journal.keeperOf(0).keep([a, b]);
    journal.close();
    const db = new Database(path);
    db.prepare("UPDATE commands SET command = ? WHERE hash = ?").run('{"hash":', a.hash);
    db.close();
    const reopened = openJournal(path);
    assert.deepEqual(reopened.contents.unreadable, 1);
    assert.deepEqual(
      reopened.contents.entries.map((e) => e.command.hash),
      [b.hash],
    );
    assert.equal(reopened.journal.size, 1);
    reopened.journal.close();
  });
});

describe("a node's mempools across a restart", () => {
  function openNode(dir: string, lines: string[] = []) {
    return BraidNode.open(
      resolveNodeOptions({ dataDir: dir, mining: "none" }, {}),
      makeLogger("info", { isTTY: false, write: (text) => lines.push(text) }),
    );
  }
  const pendingOn = (node: BraidNode) => node.chains[0]!.mempool.commands().map((x) => x.hash);
  const journalLines = (lines: readonly string[]) =>
    lines.filter((line) => line.startsWith("mempool journal"));

  it("takes back the commands accepted, in the order accepted", async () => {
    const dir = tempDir();
    const [a, b, c] = [command("a"), command("b"), command("c")];
    const first = openNode(dir);
    first.commands.submit(0, [a, b]);
    first.commands.submit(0, [c]);
    await first.close();
    const lines: string[] = [];
    const second = openNode(dir, lines);
    assert.deepEqual(pendingOn(second), [a.hash, b.hash, c.hash]);
    assert.deepEqual(journalLines(lines), [
      "mempool journal: 3 commands back in the mempools, 0 dropped (in a block, expired or refused now)\n",
    ]);
    await second.close();
  });

  it("forgets a command once it is in a block, and drops one found in a block on start", async () => {
    const dir = tempDir();
    const [a, b] = [command("a"), command("b")];
    const first = openNode(dir);
    first.commands.submit(0, [a]);
    first.producer.mine(0);
    assert.deepEqual(pendingOn(first), []);
    first.commands.submit(0, [b]);
    await first.close();
    assert.deepEqual(held(join(dir, JOURNAL_FILE)), [`0:${b.hash}`]);
    // As if the process had died between the block and the journal's release.
    const { journal } = openJournal(join(dir, JOURNAL_FILE));
    journal.keeperOf(0).keep([a]);
    journal.close();
    const lines: string[] = [];
    const second = openNode(dir, lines);
    assert.deepEqual(pendingOn(second), [b.hash]);
    assert.deepEqual(journalLines(lines), [
      "mempool journal: 1 commands back in the mempools, 1 dropped (in a block, expired or refused now)\n",
    ]);
    await second.close();
    assert.deepEqual(held(join(dir, JOURNAL_FILE)), [`0:${b.hash}`]);
  });

  it("drops on start a command that expired meanwhile", async () => {
    const dir = tempDir();
    const first = openNode(dir);
    first.commands.submit(0, [command("a")]);
    // Its hour to live is over.
    first.clock.advance(3_600);
    await first.close();
    const lines: string[] = [];
    const second = openNode(dir, lines);
    assert.deepEqual(pendingOn(second), []);
    assert.deepEqual(journalLines(lines), [
      "mempool journal: 0 commands back in the mempools, 1 dropped (in a block, expired or refused now)\n",
    ]);
    await second.close();
    assert.deepEqual(held(join(dir, JOURNAL_FILE)), []);
  });
});
