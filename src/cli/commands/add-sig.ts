/**
 * `braid add-sig KEYFILE… [-l] < sigdata`: signs the signing data (the JSON `braid -u` prints, or
 * the YAML `add-sig` prints) with every key that is one of its signers, then prints it (YAML while
 * signatures are missing, the verified command once complete).
 */
import { addSignatures, parseSigData } from "../../command/sig-data.ts";
import { loadKeyFiles } from "../keys.ts";
import type { Subcommand } from "../registry.ts";
import { printSigDataOutcome } from "../sig-output.ts";

export const addSigCommand: Subcommand = {
  register(program, io) {
    program
      .command("add-sig")
      .description("add signatures to the signing data (JSON or YAML) read from standard input")
      .argument("<keyfiles...>", "YAML key files (public and secret), as braid -g prints")
      .option("-l, --local", "print a complete command bare (the /local body), not in {cmds:[…]}")
      .action(async (files: string[], options: { local?: boolean }) => {
        const loaded = loadKeyFiles(files, io);
        const sigData = parseSigData(await io.readStdin(), "standard input");
        const { sigData: signed, unused } = addSignatures(
          sigData,
          loaded.map((k) => k.key),
        );
        for (const { file, key } of loaded) {
          if (unused.includes(key)) {
            io.warn(
              `warning: the key in ${file} (${key.publicHex}) is not a signer; it signed nothing`,
            );
          }
        }
        printSigDataOutcome(signed, options.local === true, io);
      });
  },
};
