/**
 * The one rule for tests that need something a machine may lack (data beside the repository in
 * `../shared/`, network namespaces): where it is there, they run; where it is missing, they are
 * skipped with a one-line reason naming what is missing; where they are required (on CI, or by a
 * setting of their own), a missing piece fails them instead of letting them pass unseen.
 *
 * It sits in the chain layer's test support because the mainnet vectors (`vectors.ts`) are the
 * lowest user; the tests under `test/` import it from here.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** `shared/` beside the repository: the mainnet vectors, Chainweb's OpenAPI documents, … */
export const SHARED_DIR = fileURLToPath(new URL("../../../../shared/", import.meta.url));

/**
 * For `describe(…, { skip: skipOrRequire(missing, required) }, …)`: false when nothing is missing
 * (`missing` undefined), else `missing`, the one-line reason the tests are skipped; throws instead
 * when `required` says why they must run here, so that the test file fails.
 */
export function skipOrRequire(
  missing: string | undefined,
  required: string | undefined,
): string | false {
  if (missing === undefined) return false;
  if (required !== undefined) throw new Error(`${required}, but ${missing}`);
  return missing;
}

/**
 * {@link skipOrRequire} for tests that read files beside the repository: skipped when one of
 * `paths` is absent, naming it, except on CI (`CI=true` in `env`), where that is a failure.
 */
export function missingDataSkip(
  paths: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): string | false {
  const absent = paths.find((path) => !existsSync(path));
  return skipOrRequire(
    absent === undefined ? undefined : `${absent} is missing (test data beside the repository)`,
    env["CI"] === "true" ? "this test data is required on CI (CI=true)" : undefined,
  );
}
