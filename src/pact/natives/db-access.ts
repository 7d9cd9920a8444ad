/**
 * Rules every native touching contract state follows: storage errors reported as Pact reports
 * them, database access limited by the evaluation's purity (Pact's read-only and sys-only
 * databases), natives allowed only at the top level, and natives allowed only in local mode.
 */
import { DbError } from "../db/index.ts";
import type { Runtime } from "../eval/runtime.ts";
import { Purity } from "../eval/types.ts";
import { PactError } from "../runtime/errors.ts";

/** Pact's `DbOpFailure` prefix. */
const DB_FAILURE = "Error during database operation: ";

/** Runs a storage operation, turning a storage error into Pact's `DbOpFailure`. */
export function dbOperation<T>(op: () => T): T {
  try {
    return op();
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    throw new PactError("execution", `${DB_FAILURE}${e.message}`);
  }
}

function disallowed(): PactError {
  return new PactError(
    "execution",
    `${DB_FAILURE}Operation disallowed in read-only or sys-only mode`,
  );
}

/**
 * Writes, table creation and key listings need full access: Pact's read-only database (inside
 * `enforce`, `try`, user guards) and sys-only database (constants, governance) refuse them.
 */
export function requireImpure(rt: Runtime): void {
  if (rt.purity !== Purity.Impure) throw disallowed();
}

/** Reading a user table: refused only in sys-only mode. */
export function requireUserRead(rt: Runtime): void {
  if (rt.purity === Purity.SysOnly) throw disallowed();
}

/** Pact's `enforceTopLevelOnly`: the native may not run inside a function. */
export function assertTopLevel(rt: Runtime, native: string): void {
  if (rt.callingModule() !== null) {
    throw new PactError("execution", `Top-level call used in module ${native}`);
  }
}

/**
 * Pact's `checkNonLocalAllowed`: with the flag `DisableHistoryInTransactionalMode`, history and
 * metadata natives run only in local mode.
 */
export function assertLocalAllowed(rt: Runtime, native: string): void {
  const env = rt.env;
  if (env.mode === "transactional" && env.flags.has("DisableHistoryInTransactionalMode")) {
    throw new PactError("execution", `Operation only permitted in local execution mode: ${native}`);
  }
}
