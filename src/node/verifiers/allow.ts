/**
 * Chainweb's `allow` verifier plugin, for testing: its proof is a capability as JSON text
 * (`{"name": "m.CAP", "args": [...]}`), and it grants exactly that capability.
 */
import { VerifierError, type VerifierPlugin } from "../../execution/index.ts";
import {
  type CapToken,
  decodePactValue,
  type JsonValue,
  type PactValue,
  pactValueEquals,
  parseJson,
  parseQualifiedName,
} from "../../pact/values/index.ts";

/** What one check costs, in gas. */
export const ALLOW_GAS = 100;

export const allowPlugin: VerifierPlugin = (proof, caps, gas) => {
  gas.charge(ALLOW_GAS);
  const granted = capabilityOfProof(proof);
  if (caps.length !== 1 || !pactValueEquals(caps[0]!, granted)) {
    throw new VerifierError("granted capability is not the one in the proof");
  }
};

function capabilityOfProof(proof: PactValue): CapToken {
  if (typeof proof !== "string") {
    throw new VerifierError("expected string literal in verifier arguments");
  }
  const cap = decodeCapability(proof);
  if (cap === null) {
    throw new VerifierError(`argument was not a JSON-encoded capability: ${proof}`);
  }
  return cap;
}

/** `{"name": qualified name, "args": [values]}` as a capability token, or null. */
function decodeCapability(text: string): CapToken | null {
  let json: JsonValue;
  try {
    json = parseJson(text);
  } catch {
    return null;
  }
  if (!(json instanceof Map)) return null;
  const name = json.get("name");
  const args = json.get("args");
  if (typeof name !== "string" || parseQualifiedName(name) === null || !Array.isArray(args)) {
    return null;
  }
  return {
    kind: "cap-token",
    name,
    moduleHash: "",
    args: args.map(decodePactValue),
  };
}
