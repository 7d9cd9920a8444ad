/** `braid -b`: the natives, one per line in double quotes, in Pact's order. */
import { builtinNames, ReplSession } from "../../pact/index.ts";
import type { RootMode } from "../registry.ts";

export const builtinsMode: RootMode = {
  flag: "-b/--builtins",
  register(program) {
    program.option("-b, --builtins", "list the natives, one per line");
  },
  selected: (options) => options.builtins === true,
  run(_options, _file, io) {
    const session = new ReplSession({ line: () => {}, readFile: () => "" });
    for (const name of builtinNames(session.nativeNames())) io.out(`"${name}"\n`);
  },
};
