/**
 * Runs one verified command against the contract state, in a transaction of its own: committed
 * when it succeeds in `transactional` mode, rolled back when it fails or runs in `local` mode.
 * Never throws for anything the command does; every failure becomes a failure result. A failure
 * of the disk under the state is thrown instead (storageFailureReason).
 */
import type { ParsedCommand } from "../command/index.ts";
import { encodeBase64Url } from "../crypto/index.ts";
import { hashTxLogs, storageFailureReason } from "../pact/db/index.ts";
import {
  createRuntime,
  encodeDefPactExec,
  PactGasMeter,
  withCapabilityAcquired,
} from "../pact/index.ts";
import type { PactValue } from "../pact/values/index.ts";
import { runContinuation } from "./continuation.ts";
import { buildExecutionEnv } from "./env.ts";
import { onChainError } from "./errors.ts";
import { runExecCode } from "./exec-code.ts";
import { gasMeterFor, gasUsed } from "./gas-settings.ts";
import { ON_CHAIN_NATIVES } from "./natives.ts";
import type { CommandOutcome, ExecutionOptions, OnChainError } from "./types.ts";
import { runVerifierPlugins } from "./verifiers.ts";

/**
 * The `logs` of a command that wrote nothing (every `local` read, every pure computation, every
 * failure, whose writes are rolled back): the hash of an empty tx-log list.
 */
const NO_WRITES_HASH = encodeBase64Url(hashTxLogs([]));

export function executeCommand(command: ParsedCommand, options: ExecutionOptions): CommandOutcome {
  const { db } = options;
  const natives = options.natives ?? ON_CHAIN_NATIVES;
  const meter = options.meter ?? gasMeterFor(options.gas, command, options.bounds);
  let began = false;
  const profiler = options.profiler ?? null;
  // Attached before the verifiers charge; the runtime attaches it again.
  if (profiler !== null && meter instanceof PactGasMeter) meter.recorder = profiler;
  try {
    if (options.verifierPlugins != null) {
      runVerifierPlugins(options.verifierPlugins, command.payload, meter);
    }
    const env = buildExecutionEnv(command, options, natives, meter);
    const rt = createRuntime(env, { profiler });
    for (const cap of options.grantedCaps ?? []) rt.caps.slots.push({ cap, composed: [] });
    const txId = db.beginTx(options.mode);
    began = true;
    const message = command.payload.payload;
    const run = () =>
      message.kind === "exec"
        ? runExecCode(rt, message.code, natives)
        : runContinuation(rt, message, options.continuationVerifier ?? null);
    const data =
      options.acquiredCap === undefined
        ? run()
        : (withCapabilityAcquired(rt, options.acquiredCap, run) as PactValue);
    const logs = db.commitTx();
    began = false;
    return {
      reqKey: command.hash,
      gas: gasUsed(meter),
      result: { status: "success", data },
      logs: logs.length === 0 ? NO_WRITES_HASH : encodeBase64Url(hashTxLogs(logs)),
      events: env.flags.has("DisablePactEvents") ? [] : rt.events,
      continuation: rt.pactExec === null ? null : encodeDefPactExec(rt.pactExec),
      txId: options.mode === "transactional" ? txId : null,
      txLogs: logs,
    };
  } catch (e) {
    // The disk failing is not the command's doing: it ends the run instead of becoming its
    // result (a block would hold an output that replaying it does not give). The state is left
    // as it is, for its owner to recover.
    if (storageFailureReason(e) !== null) throw e;
    if (began && db.inTx) db.rollbackTx();
    return failureOutcome(command.hash, onChainError(e), gasUsed(meter));
  }
}

/** A failure result: no writes, events, continuation or tx id. */
export function failureOutcome(reqKey: string, error: OnChainError, gas = 0): CommandOutcome {
  return {
    reqKey,
    gas,
    result: { status: "failure", error },
    logs: NO_WRITES_HASH,
    events: [],
    continuation: null,
    txId: null,
    txLogs: [],
  };
}
