import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { missingDataSkip, SHARED_DIR } from "../../chain/test-support/skip-or-require.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import { DEVELOPMENT_GENESIS_PAYLOADS } from "../genesis/chainweb-genesis-files.ts";
import { makeLogger } from "../logger.ts";
import { BraidNode, stateFile } from "../node.ts";
import { resolveNodeOptions } from "../options.ts";
import { GenesisRefusal } from "./genesis-blocks.ts";

const FOLDER = join(SHARED_DIR, "reference", "chainweb-genesis");

const open = (dataDir: string, genesis: string | null) =>
  BraidNode.open(
    resolveNodeOptions({ dataDir, mining: "none", executionThreads: 0, genesis }, {}),
    makeLogger("error"),
  );

describe("a data directory and the genesis it was made from", {
  skip: missingDataSkip(
    DEVELOPMENT_GENESIS_PAYLOADS.map(({ name }) => join(FOLDER, `${name}.json`)),
  ),
}, () => {
  const scratch = mkdtempSync(join(tmpdir(), "braid-genesis-kind-"));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it("one made from Braid's own genesis refuses to open with chainweb-node's", async () => {
    const dir = join(scratch, "braid");
    await open(dir, null).close();
    assert.throws(
      () => open(dir, FOLDER),
      new GenesisRefusal(
        `${dir} was made from Braid's own genesis; it cannot be opened with --genesis (chainweb-node's): start without --genesis, or give another dataDir`,
      ),
    );
  });

  it("one made from chainweb-node's opens again with it, its genesis replayed as chainweb-node runs it when a state file is lost", async () => {
    const dir = join(scratch, "chainweb");
    const first = open(dir, FOLDER);
    const heads = first.chains.map((c) => encodeBase64Url(c.head.hash));
    await first.close();
    for (const suffix of ["", "-wal", "-shm"]) {
      rmSync(join(dir, `${stateFile(3)}${suffix}`), { force: true });
    }
    const reopened = open(dir, FOLDER);
    try {
      assert.deepEqual(
        reopened.chains.map((c) => encodeBase64Url(c.head.hash)),
        heads,
      );
      assert.equal(heads[0], "sI6c8YyJ48Poan9J7F6-u9bRJ5Ss5XLZP3wa_jBLRi0");
    } finally {
      await reopened.close();
    }
  });
});
