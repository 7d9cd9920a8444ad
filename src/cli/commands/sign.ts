/** `braid sign KEYFILE… < hash`: signs a base64url command hash, printing `<public key>: <sig>` YAML. */
import { formatSignatures, signHash } from "../../command/sig-data.ts";
import { loadKeyFiles } from "../keys.ts";
import type { Subcommand } from "../registry.ts";

export const signCommand: Subcommand = {
  register(program, io) {
    program
      .command("sign")
      .description("sign the base64url command hash read from standard input")
      .argument("<keyfiles...>", "YAML key files (public and secret), as braid -g prints")
      .action(async (files: string[]) => {
        const keys = loadKeyFiles(files, io).map((k) => k.key);
        io.out(formatSignatures(signHash(await io.readStdin(), keys)));
      });
  },
};
