/**
 * `braid combine-sigs FILE… [-l]`: merges signing data files for one command, then prints the
 * result (YAML while signatures are missing, the verified command once complete).
 */
import { combineSigData, parseSigData } from "../../command/sig-data.ts";
import type { Subcommand } from "../registry.ts";
import { printSigDataOutcome } from "../sig-output.ts";

export const combineSigsCommand: Subcommand = {
  register(program, io) {
    program
      .command("combine-sigs")
      .description("combine signing data files (YAML) for the same command")
      .argument("<files...>", "signing data files, as braid -u and add-sig print")
      .option("-l, --local", "print a complete command bare (the /local body), not in {cmds:[…]}")
      .action((files: string[], options: { local?: boolean }) => {
        const sigDatas = files.map((source) => ({
          source,
          sigData: parseSigData(io.readFile(source), source),
        }));
        printSigDataOutcome(combineSigData(sigDatas), options.local === true, io);
      });
  },
};
