/** Test support for the verifier plugins (not built into `dist/`). */
import { VerifierError } from "../../../execution/index.ts";

/** Runs a plugin expecting it to refuse; returns its message. */
export function verifierFailure(run: () => void): string {
  try {
    run();
  } catch (e) {
    if (e instanceof VerifierError) return e.message;
    throw e;
  }
  throw new Error("expected a verifier failure");
}
