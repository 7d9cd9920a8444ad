/**
 * `braid -a FILE [-l]`: builds and signs the command a YAML request describes and prints it as the
 * body of `/send` (`{"cmds":[…]}`), or with `-l` as the bare command (the body of `/local`). A
 * creation time of 0 (the spec's default when `publicMeta` leaves it out) is kept, with a warning:
 * `send` and preflight refuse such a command as expired.
 */
import { buildCommand } from "../../command/build.ts";
import { encodeCommandJson, encodeSubmitBatch } from "../../command/command-json.ts";
import { parseApiRequest } from "../../command/yaml-request.ts";
import { UserError } from "../errors.ts";
import { chosenHash } from "../hash-option.ts";
import type { RootMode } from "../registry.ts";

export const apiRequestMode: RootMode = {
  flag: "-a/--apireq",
  register(program) {
    program
      .option("-a, --apireq <file>", "build and sign the command a YAML request describes")
      .option("-l, --local", "with -a: print the bare command (the /local body), not {cmds:[…]}");
  },
  validate(options) {
    if (options.local === true && options.apireq === undefined) {
      throw new UserError(
        "-l/--local is only used with -a/--apireq (or after add-sig/combine-sigs)",
      );
    }
  },
  selected: (options) => options.apireq !== undefined,
  run(options, _file, io) {
    const source = options.apireq as string;
    const request = parseApiRequest(io.readFile(source), source, false, {
      readFile: (path) => io.readFile(path),
      now: () => new Date(),
    });
    const meta = request.payload.meta;
    if (meta.kind === "public" && meta.creationTime === 0) {
      io.warn(
        `publicMeta.creationTime is 0 (the spec's default when left out): send, and local with preflight, refuse the command as expired ("Transaction time-to-live is expired"); set creationTime to the time now in seconds, e.g. ${Math.floor(Date.now() / 1000)} (in JavaScript Math.floor(Date.now() / 1000), in a shell $(date +%s))`,
      );
    }
    const command = buildCommand(request, chosenHash(options));
    io.out(
      `${options.local === true ? encodeCommandJson(command) : encodeSubmitBatch([command])}\n`,
    );
  },
};
