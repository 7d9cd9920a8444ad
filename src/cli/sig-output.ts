/**
 * The end of `add-sig` and `combine-sigs`: signing data still missing signatures is printed as YAML,
 * a complete, verified command as JSON (`{"cmds":[…]}`, or the bare command with `-l`), and a
 * failed verification is a user error naming every problem.
 */
import { encodeCommandJson, encodeSubmitBatch } from "../command/command-json.ts";
import { finishSigData, formatSigData, type SigData } from "../command/sig-data.ts";
import { UserError } from "./errors.ts";
import type { CliIO } from "./io.ts";

export function printSigDataOutcome(sigData: SigData, local: boolean, io: CliIO): void {
  const outcome = finishSigData(sigData);
  switch (outcome.kind) {
    case "partial":
      io.out(formatSigData(outcome.sigData));
      return;
    case "complete":
      io.out(
        `${local ? encodeCommandJson(outcome.command) : encodeSubmitBatch([outcome.command])}\n`,
      );
      return;
    case "invalid":
      throw new UserError(`command verification failed: ${outcome.problems.join("; ")}`);
  }
}
