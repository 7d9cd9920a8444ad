/**
 * The `verify` endpoint's report: whether a command, or a piece of contract code, is well formed.
 * Every check is listed with its outcome; a check that cannot run because an earlier one failed is
 * `skipped`. Nothing is executed: modules are compiled against the current state in a
 * transaction that is rolled back.
 *
 * Request: a command `{"cmd","hash","sigs"}`, or `{"code": "<Pact source>"}`.
 * Response: `{"valid": bool, "kind": "command"|"code"|null, "requestKey": string|null,
 *   "checks": [{"check": name, "outcome": "passed"|"failed"|"skipped", "detail": text}, …]}`.
 */
import {
  COMMAND_HASH_NAMES,
  type CommandHashAlgorithm,
  type CommandProblem,
  type CommandProblemKind,
  isRequestKey,
  matchingAlgorithm,
  parseCommand,
} from "../../command/index.ts";
import { decodeBase64Url } from "../../crypto/index.ts";
import { EXEC_SOURCE_NAME, ON_CHAIN_NATIVES, onChainError } from "../../execution/index.ts";
import type { PactDb } from "../../pact/db/index.ts";
import {
  compileOnly,
  createDefaultRuntime,
  PactSyntaxError,
  parseProgram,
  type TopLevel,
} from "../../pact/index.ts";

export type CheckName = "json" | "format" | "hash" | "signatures" | "parse" | "compile";
export type CheckOutcome = "passed" | "failed" | "skipped";

export interface Check {
  readonly check: CheckName;
  readonly outcome: CheckOutcome;
  readonly detail: string;
}

export interface VerifyReport {
  readonly valid: boolean;
  readonly kind: "command" | "code" | null;
  readonly requestKey: string | null;
  readonly checks: readonly Check[];
}

const HASH_PROBLEMS: ReadonlySet<CommandProblemKind> = new Set(["bad-hash", "hash-mismatch"]);
const SIGNATURE_PROBLEMS: ReadonlySet<CommandProblemKind> = new Set([
  "signature-count",
  "missing-signature",
  "invalid-signature",
  "bad-public-key",
]);

export function verifyRequest(
  bodyText: string,
  db: PactDb,
  ownHash: CommandHashAlgorithm,
): VerifyReport {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch (e) {
    return report(null, null, [
      failed("json", `malformed JSON: ${(e as Error).message}`),
      skipped("format", "the body is not JSON"),
    ]);
  }
  const checks: Check[] = [passed("json", "the body is JSON")];
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const fields = body as Record<string, unknown>;
    if (!("cmd" in fields) && typeof fields.code === "string") {
      checks.push(passed("format", 'a code request {"code": …}'));
      checks.push(...checkCode(fields.code, db));
      return report("code", null, checks);
    }
  }
  return verifyCommand(body, checks, db, ownHash);
}

function verifyCommand(
  body: unknown,
  checks: Check[],
  db: PactDb,
  ownHash: CommandHashAlgorithm,
): VerifyReport {
  const parsed = parseCommand(body);
  const problems = parsed.ok ? [] : parsed.problems;
  const of = (kinds: (k: CommandProblemKind) => boolean) => problems.filter((p) => kinds(p.kind));
  const formatProblems = of((k) => !HASH_PROBLEMS.has(k) && !SIGNATURE_PROBLEMS.has(k));
  const hashProblems = of((k) => HASH_PROBLEMS.has(k));
  const signatureProblems = of((k) => SIGNATURE_PROBLEMS.has(k));
  const fields = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;

  checks.push(
    formatProblems.length > 0
      ? failed("format", describe(formatProblems))
      : passed("format", "cmd, hash and sigs are well formed, and so is the payload in cmd"),
  );
  if (hashProblems.length > 0) checks.push(failed("hash", describe(hashProblems)));
  else {
    const algorithm = hashAlgorithmOf(fields.cmd, fields.hash);
    checks.push(
      algorithm === undefined
        ? skipped("hash", "there is no cmd string and hash to compare")
        : passed("hash", hashDetail(algorithm, ownHash)),
    );
  }
  if (signatureProblems.length > 0) checks.push(failed("signatures", describe(signatureProblems)));
  else if (parsed.ok) {
    const n = parsed.command.payload.signers.length;
    checks.push(passed("signatures", `${n} valid signature${n === 1 ? "" : "s"}, one per signer`));
  } else checks.push(skipped("signatures", "the payload could not be read"));

  // Only a canonical key is echoed (a malformed hash may be megabytes long).
  const requestKey =
    typeof fields.hash === "string" && isRequestKey(fields.hash) ? fields.hash : null;
  if (!parsed.ok) {
    checks.push(skipped("parse", "the command is not valid"));
    return report("command", requestKey, checks);
  }
  const message = parsed.command.payload.payload;
  if (message.kind === "cont") {
    checks.push(skipped("parse", "a continuation carries no code"));
    return report("command", requestKey, checks);
  }
  checks.push(...checkCode(message.code, db));
  return report("command", requestKey, checks);
}

function hashAlgorithmOf(cmd: unknown, hash: unknown): CommandHashAlgorithm | undefined {
  if (typeof cmd !== "string" || typeof hash !== "string") return undefined;
  try {
    return matchingAlgorithm(cmd, decodeBase64Url(hash));
  } catch {
    return undefined;
  }
}

function hashDetail(algorithm: CommandHashAlgorithm, own: CommandHashAlgorithm): string {
  const name = COMMAND_HASH_NAMES[algorithm];
  return algorithm === own
    ? `the hash is the ${name} hash of cmd`
    : `the hash is the ${name} hash of cmd (accepted; this server's own is ${COMMAND_HASH_NAMES[own]})`;
}

/** The `parse` and `compile` checks of contract code. */
function checkCode(code: string, db: PactDb): Check[] {
  let program: TopLevel[];
  try {
    program = parseProgram(code, EXEC_SOURCE_NAME);
  } catch (e) {
    if (!(e instanceof PactSyntaxError)) throw e;
    return [failed("parse", e.message), skipped("compile", "the code does not parse")];
  }
  const forms = `${program.length} top-level form${program.length === 1 ? "" : "s"}`;
  return [passed("parse", forms), compileCheck(program, code, db)];
}

/**
 * Compiles every module and interface of `program`, in order, against the current state (with
 * the namespace set by a preceding `(namespace "…")` and imports from `use`), writing nothing.
 */
function compileCheck(program: readonly TopLevel[], code: string, db: PactDb): Check {
  let compiled: string[];
  try {
    const rt = createDefaultRuntime(ON_CHAIN_NATIVES, db);
    const modules = compileOnly(rt, program, code, {
      file: EXEC_SOURCE_NAME,
      natives: ON_CHAIN_NATIVES,
    });
    compiled = modules.map((m) => `${m.kind} ${m.info.rendered}`);
  } catch (e) {
    const error = onChainError(e);
    return failed("compile", `${error.message} (${error.type} at ${error.info})`);
  }
  return passed(
    "compile",
    compiled.length === 0 ? "no module or interface to compile" : `compiled ${compiled.join(", ")}`,
  );
}

function describe(problems: readonly CommandProblem[]): string {
  return problems.map((p) => p.message).join("; ");
}

function report(
  kind: VerifyReport["kind"],
  requestKey: string | null,
  checks: readonly Check[],
): VerifyReport {
  return { valid: checks.every((c) => c.outcome !== "failed"), kind, requestKey, checks };
}

const passed = (check: CheckName, detail: string): Check => ({ check, outcome: "passed", detail });
const failed = (check: CheckName, detail: string): Check => ({ check, outcome: "failed", detail });
const skipped = (check: CheckName, detail: string): Check => ({
  check,
  outcome: "skipped",
  detail,
});
