/** `braid sign KEYFILE… < data`: signs base64url data (a command hash, or any), printing `<public key>: <sig>` YAML. */
import { formatSignatures, signData } from "../../command/sig-data.ts";
import { loadKeyFiles } from "../keys.ts";
import type { Subcommand } from "../registry.ts";

export const signCommand: Subcommand = {
  register(program, io) {
    program
      .command("sign")
      .description("sign the base64url data (a command hash, or any) read from standard input")
      .argument("<keyfiles...>", "YAML key files (public and secret), as braid -g prints")
      .action(async (files: string[]) => {
        const keys = loadKeyFiles(files, io).map((k) => k.key);
        io.out(formatSignatures(signData(await io.readStdin(), keys)));
      });
  },
};
