import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ChainwebGenesisError } from "./chainweb-genesis.ts";
import { GENESIS_MODULES_FOLDER, readChainwebGenesisFolder } from "./chainweb-genesis-files.ts";

describe("the --genesis folder", () => {
  const scratch = mkdtempSync(join(tmpdir(), "braid-genesis-folder-"));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it("a folder without the JSON form: names the file it lacks and what --genesis takes", () => {
    const file = join(scratch, "Development0Payload.json");
    assert.throws(
      () => readChainwebGenesisFolder(scratch),
      new ChainwebGenesisError(
        `${file}: cannot read chainweb-node's genesis payload (ENOENT); --genesis names a chainweb-node checkout (its src/Chainweb/BlockHeader/Genesis) or a folder holding Development0Payload.json and Development1to19Payload.json`,
      ),
    );
  });

  it("a checkout without its generated modules: names the module it lacks", () => {
    const checkout = join(scratch, "chainweb-node");
    mkdirSync(join(checkout, GENESIS_MODULES_FOLDER), { recursive: true });
    const file = join(checkout, GENESIS_MODULES_FOLDER, "Development0Payload.hs");
    assert.throws(
      () => readChainwebGenesisFolder(checkout),
      new ChainwebGenesisError(
        `${file}: cannot read chainweb-node's genesis payload (ENOENT); --genesis names a chainweb-node checkout (its src/Chainweb/BlockHeader/Genesis) or a folder holding Development0Payload.hs and Development1to19Payload.hs`,
      ),
    );
  });
});
