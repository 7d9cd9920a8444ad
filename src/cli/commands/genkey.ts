/** `braid -g`: a random ED25519 key pair as `public:` and `secret:` lines (a valid key file). */
import { formatKeyPair } from "../../command/key-file.ts";
import { generateKeyPair } from "../../crypto/index.ts";
import type { RootMode } from "../registry.ts";

export const genkeyMode: RootMode = {
  flag: "-g/--genkey",
  register(program) {
    program.option(
      "-g, --genkey",
      "generate a random ED25519 key pair, printed as a YAML key file",
    );
  },
  selected: (options) => options.genkey === true,
  run(_options, _file, io) {
    io.out(formatKeyPair(generateKeyPair()));
  },
};
