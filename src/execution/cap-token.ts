/** Capabilities a command names (in signers' and verifiers' `clist`) as capability tokens. */
import type { SigCapability } from "../command/index.ts";
import { type CapToken, decodePactValue } from "../pact/values/index.ts";

/**
 * A capability named in a signer's or verifier's `clist`; it matches by name and arguments, not
 * module hash.
 */
export function capToken(cap: SigCapability): CapToken {
  return { kind: "cap-token", name: cap.name, moduleHash: "", args: cap.args.map(decodePactValue) };
}
