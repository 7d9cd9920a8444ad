/**
 * `braid -u FILE`: builds the command a YAML request describes (its `signers` list public keys
 * only) and prints its signing data as YAML, for `add-sig`, `sign` and `combine-sigs`.
 */
import { buildSigData } from "../../command/build.ts";
import { formatSigData } from "../../command/sig-data.ts";
import { parseApiRequest } from "../../command/yaml-request.ts";
import { chosenHash } from "../hash-option.ts";
import type { RootMode } from "../registry.ts";

export const unsignedMode: RootMode = {
  flag: "-u/--unsigned",
  register(program) {
    program.option(
      "-u, --unsigned <file>",
      "build an unsigned command from a YAML request and print its signing data",
    );
  },
  selected: (options) => options.unsigned !== undefined,
  run(options, _file, io) {
    const source = options.unsigned as string;
    const request = parseApiRequest(io.readFile(source), source, true, {
      readFile: (path) => io.readFile(path),
      now: () => new Date(),
    });
    io.out(formatSigData(buildSigData(request, chosenHash(options))));
  },
};
