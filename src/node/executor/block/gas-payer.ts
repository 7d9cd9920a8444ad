/**
 * Gas stations, Chainweb's way (its `gasPayerCaps` and `enrichedMsgBodyForGasPayer`): a signer
 * that lists a capability named `GAS_PAYER` (of any module: gas stations implement
 * `gas-payer-v1`) has it acquired around the gas purchase, whose message data then also tells
 * the station what it pays for — the kind of payload, and the exec code form by form with its
 * data, or the continuation's parts.
 */
import type { ParsedCommand } from "../../../command/index.ts";
import { capToken, EXEC_SOURCE_NAME } from "../../../execution/index.ts";
import { PactSyntaxError, topLevelSources } from "../../../pact/index.ts";
import {
  type CapToken,
  JsonNumber,
  type JsonObject,
  type JsonValue,
} from "../../../pact/values/index.ts";

/** The unqualified name that makes a signer's capability a gas payer's. */
const GAS_PAYER = "GAS_PAYER";

export type GasPayer =
  | { readonly kind: "none" }
  | { readonly kind: "one"; readonly cap: CapToken }
  | { readonly kind: "several" };

/** The `GAS_PAYER` capabilities the command's signers list, counted across all of them. */
export function gasPayerOf(command: ParsedCommand): GasPayer {
  const caps = command.payload.signers.flatMap((signer) =>
    signer.clist.filter((cap) => cap.name.slice(cap.name.lastIndexOf(".") + 1) === GAS_PAYER),
  );
  if (caps.length === 0) return { kind: "none" };
  if (caps.length > 1) return { kind: "several" };
  return { kind: "one", cap: capToken(caps[0]!) };
}

/** The message data of the purchase as a gas payer sees it: `data` and what the command is. */
export function withGasPayerData(data: JsonValue, command: ParsedCommand): JsonObject {
  const message = command.payload.payload;
  const seen: [string, JsonValue][] =
    message.kind === "exec"
      ? [
          ["tx-type", "exec"],
          ["exec-code", execCodeForms(message.code)],
          ["exec-user-data", message.data],
        ]
      : [
          ["tx-type", "cont"],
          ["cont-pact-id", message.pactId],
          ["cont-step", new JsonNumber(String(message.step))],
          ["cont-is-rollback", message.rollback],
          ["cont-user-data", message.data],
          ["cont-has-proof", message.proof !== null],
        ];
  return new Map([...(data instanceof Map ? data : []), ...seen]);
}

/**
 * The code's top-level forms as their source text. Code that does not parse fails when it runs;
 * its payer sees no forms.
 */
function execCodeForms(code: string): string[] {
  try {
    return topLevelSources(code, EXEC_SOURCE_NAME);
  } catch (e) {
    if (e instanceof PactSyntaxError) return [];
    throw e;
  }
}
