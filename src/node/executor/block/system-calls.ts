/**
 * Running the node's calls into `coin` (genesis/coin-calls.ts: the coinbase, buying and redeeming
 * gas) through the execution layer: their magic capabilities as tokens, their data as Pact JSON,
 * and a command's signers and metadata lent to the calls made on its behalf.
 */
import type { ParsedCommand, SigCapability } from "../../../command/index.ts";
import {
  type CapToken,
  type Decimal,
  type JsonValue,
  parseJson,
} from "../../../pact/values/index.ts";
import type { CoinCall } from "../../genesis/coin-calls.ts";

/** The magic capabilities as tokens the interpreter grants before a call runs. */
export function grantedCaps(grants: readonly string[]): CapToken[] {
  return grants.map((name) => ({
    kind: "cap-token",
    name,
    moduleHash: "",
    args: [],
  }));
}

/** A coin call's data as the JSON the interpreter reads. */
export function callData(call: CoinCall): JsonValue {
  return parseJson(JSON.stringify(call.data));
}

/** A coin amount as the calls take it: decimal text with at least one fraction digit. */
export function coinAmount(d: Decimal): string {
  const text = d.toString();
  return text.includes(".") ? text : `${text}.0`;
}

/**
 * `command` with its code and data replaced, keeping its hash, signers and metadata: how the node
 * runs a system call in the command's name. When `gasSigners` is set, every signer whose
 * signature is scoped to `coin.GAS` is also scoped to `coin.DEBIT <sender>`, so the purchase can
 * debit the sender (as Chainweb does).
 */
export function systemCall(
  command: ParsedCommand,
  call: CoinCall,
  gasSigners = false,
): ParsedCommand {
  const { payload } = command;
  const sender = payload.meta.kind === "public" ? payload.meta.sender : "";
  const signers = gasSigners
    ? payload.signers.map((s) =>
        s.clist.some(isGasCap) ? { ...s, clist: [...s.clist, debitCap(sender)] } : s,
      )
    : payload.signers;
  return {
    ...command,
    payload: {
      ...payload,
      signers,
      payload: { kind: "exec", code: call.code, data: callData(call) },
    },
  };
}

function isGasCap(cap: SigCapability): boolean {
  return cap.name === "coin.GAS" && cap.args.length === 0;
}

function debitCap(sender: string): SigCapability {
  return { name: "coin.DEBIT", args: [sender] };
}
