/**
 * `braid -u FILE`: builds the command a YAML request describes, unsigned (its signers come from
 * `signers`, or from the public keys of `keyPairs`, whose secrets are not used), and prints its
 * signing data as JSON (the interface spec's form) for `add-sig`, `sign` and `combine-sigs`.
 */
import { buildSigData } from "../../command/build.ts";
import { encodeSigDataJson } from "../../command/sig-data.ts";
import { parseApiRequest } from "../../command/yaml-request.ts";
import { chosenHash } from "../hash-option.ts";
import type { RootMode } from "../registry.ts";

export const unsignedMode: RootMode = {
  flag: "-u/--unsigned",
  register(program) {
    program.option(
      "-u, --unsigned <file>",
      "build an unsigned command from a YAML request and print its signing data as JSON",
    );
  },
  selected: (options) => options.unsigned !== undefined,
  run(options, _file, io) {
    const source = options.unsigned as string;
    const request = parseApiRequest(io.readFile(source), source, true, {
      readFile: (path) => io.readFile(path),
      now: () => new Date(),
    });
    const unused = request.unusedSecrets;
    if (unused.length > 0) {
      io.warn(
        `warning: ${unused.length === 1 ? "the secret key of" : "the secret keys of"} ${unused.join(", ")} in ${source} ${unused.length === 1 ? "is" : "are"} not used: -u signs nothing (sign with braid add-sig)`,
      );
    }
    io.out(`${encodeSigDataJson(buildSigData(request, chosenHash(options)))}\n`);
  },
};
