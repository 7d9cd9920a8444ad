/** `braid header inspect <base64url | file>`: decode a block header and check its hashes. */
import { runHeaderInspect } from "../header-inspect.ts";
import type { Subcommand } from "../registry.ts";

export const headerCommand: Subcommand = {
  register(program, io) {
    const header = program.command("header").description("work with Chainweb block headers");
    header
      .command("inspect")
      .description(
        "decode a header (base64url, JSON object, or a file holding either or the raw 318 bytes) and show its computed hash and PoW hash",
      )
      .argument("<header>", "a base64url or JSON header, or a file name")
      .action((argument: string) => {
        io.out(`${runHeaderInspect(argument)}\n`);
      });
  },
};
