/**
 * The defpact state machine (Pact's `initPact`, `applyPact`, `applyNestedPact`, `resumePact`).
 *
 * Applying a defpact runs its step 0: the defpact's id is the transaction hash, its state after
 * the step (`rt.pactExec`) is written to the contract database under that id, or `null` once its
 * last step ran (or a rollback did). A later transaction continues it (`continue-pact` in the
 * REPL, a `cont` command on a node) with the next step, or rolls the current step back, reading
 * that state. A defpact applied inside a step is nested: it gets its own id (a hash of the
 * parent's id and the call), runs the same step as its parent, and its state lives inside the
 * parent's, which may only advance when every nested defpact advanced with it.
 *
 * Cross-chain: a step may `yield` to another chain; on that chain the node verifies an SPV proof
 * of the yielding transaction (the verifier is the node's) and resumes with the proven state.
 */
import { DefPactDef } from "../compile/ir.ts";
import { DbError } from "../db/index.ts";
import { writeCost } from "../gas/costs.ts";
import type { PactGasMeter } from "../gas/index.ts";
import { abbrevOnChain, PactError } from "../runtime/errors.ts";
import { expectedPactValueError } from "../runtime/native-errors.ts";
import { isCallable, type RuntimeValue } from "../runtime/types.ts";
import { pactValueEquals } from "../values/equality.ts";
import { parseQualifiedName } from "../values/names.ts";
import type { PactValue } from "../values/types.ts";
import { CallSite } from "./callables.ts";
import { emitEvent } from "./capabilities.ts";
import {
  type DefPactContinuation,
  type DefPactExec,
  type DefPactStep,
  decodeDefPactExec,
  encodeDefPactExec,
  fromNested,
  type NestedDefPactExec,
  nestedPactId,
  toNested,
  type Yield,
} from "./defpact-exec.ts";
import { defPactExecSize } from "./defpact-size.ts";
import { runPactStep } from "./defpact-steps.ts";
import type { Runtime } from "./runtime.ts";
import { type DefPactEngine, Purity } from "./types.ts";

/** On chain, defpact errors show the defpact id cut to this many characters (Pact's `tDpId`). */
const DEFPACT_ID_ON_CHAIN_CHARS = 20;
const NO_NESTED: ReadonlyMap<string, NestedDefPactExec> = new Map();

/** The engine every runtime uses (see `Runtime.defpacts`). */
export const DEFPACT_ENGINE: DefPactEngine = {
  init: initPact,
  currentPactId: (rt) => rt.pactExec?.pactId ?? null,
};

/** Haskell's `show` of a boolean, as Pact's messages print it. */
function hsBool(b: boolean): string {
  return b ? "True" : "False";
}

function invariant(rt: Runtime, message: string, site: CallSite): PactError {
  return rt.error("execution", `Fatal execution error, invariant violated: ${message}`, site);
}

/** Applying defpact `def` to `args`: step 0 of a new defpact, or of a nested one in a step. */
export function initPact(
  rt: Runtime,
  def: DefPactDef,
  args: readonly PactValue[],
  site: CallSite,
): RuntimeValue {
  const continuation: DefPactContinuation = { def: def.qualifiedName, args };
  const parent = rt.pactStep;
  if (parent === null) {
    const step: DefPactStep = { step: 0, rollback: false, pactId: rt.env.txHash, resume: null };
    return withStep(rt, step, () => applyPact(rt, continuation, step, NO_NESTED, site));
  }
  const step: DefPactStep = {
    step: parent.step,
    rollback: parent.rollback,
    pactId: nestedPactId(parent.pactId, continuation),
    resume: null,
  };
  return applyNestedPact(rt, continuation, step, site);
}

/** Runs `body` with `step` as the step being evaluated. */
function withStep<T>(rt: Runtime, step: DefPactStep, body: () => T): T {
  const previous = rt.pactStep;
  rt.pactStep = step;
  try {
    return body();
  } finally {
    rt.pactStep = previous;
  }
}

function lookupDefPact(rt: Runtime, name: string, site: CallSite): DefPactDef {
  const qn = parseQualifiedName(name);
  const def = qn === null ? undefined : rt.getModule(qn.module, site).defs.get(qn.name);
  if (!(def instanceof DefPactDef)) throw invariant(rt, `Expected a defpact: ${name}`, site);
  return def;
}

function invalidStep(rt: Runtime, step: DefPactStep, stepCount: number, site: CallSite): PactError {
  return rt.error(
    "execution",
    `DefPactStep does not match defpact properties: requested: ${step.step} step count:${stepCount}`,
    site,
  );
}

/** Evaluates the step (or its rollback) of `def` that `step` names. */
function runStep(
  rt: Runtime,
  def: DefPactDef,
  continuation: DefPactContinuation,
  step: DefPactStep,
  site: CallSite,
): PactValue {
  if (step.rollback && def.steps[step.step]?.rollback == null) {
    throw rt.error("execution", `Step has no rollback: defpact id: ${step.pactId}`, site);
  }
  const value = runPactStep(rt, def, continuation.args, step.step, step.rollback, site);
  if (isCallable(value)) throw rt.locate(expectedPactValueError(), site);
  return value;
}

/** Whether a nested defpact of `exec` did not run the step `step` (Pact's check after a step). */
function nestedNotAdvanced(exec: DefPactExec, step: DefPactStep): boolean {
  for (const n of exec.nested.values()) if (n.step !== step.step) return true;
  return false;
}

/** Runs a step of a top-level defpact and stores the state it leaves. */
function applyPact(
  rt: Runtime,
  continuation: DefPactContinuation,
  step: DefPactStep,
  nested: ReadonlyMap<string, NestedDefPactExec>,
  site: CallSite,
): PactValue {
  if (rt.pactExec !== null) {
    throw rt.error(
      "execution",
      `defpact execution context already in the environment:  defpact id: ${rt.pactExec.pactId}`,
      site,
    );
  }
  const def = lookupDefPact(rt, continuation.def, site);
  const s = def.steps[step.step];
  if (s === undefined) throw invalidStep(rt, step, def.steps.length, site);
  rt.pactExec = {
    stepCount: def.steps.length,
    yield: null,
    step: step.step,
    pactId: step.pactId,
    continuation,
    stepHasRollback: s.rollback !== null,
    nested,
  };
  const result = runStep(rt, def, continuation, step, site);
  const exec = rt.pactExec as DefPactExec | null;
  const current = rt.pactStep;
  if (exec === null || current === null) {
    throw invariant(rt, "defpact execution state missing after a step", site);
  }
  const done = current.rollback || current.step === exec.stepCount - 1;
  if (nestedNotAdvanced(exec, current)) {
    throw rt.error("execution", `Nested defpact not advanced ${exec.pactId}`, site);
  }
  const gas = rt.env.gas;
  if (gas.charging === true) {
    const meter = gas as PactGasMeter;
    meter.charge(writeCost(meter.config, defPactExecSize(exec)), "GWrite");
  }
  writeDefPactState(rt, current.pactId, done ? null : exec, site);
  emitCrossChainEvents(rt, current.resume, exec);
  return result;
}

/** Runs the step of a defpact nested in the running one, recording its state in the parent's. */
function applyNestedPact(
  rt: Runtime,
  continuation: DefPactContinuation,
  step: DefPactStep,
  site: CallSite,
): PactValue {
  const parent = rt.pactExec;
  if (parent === null) throw invariant(rt, "defpact execution not in the environment", site);
  const def = lookupDefPact(rt, continuation.def, site);
  const s = def.steps[step.step];
  if (s === undefined) throw invalidStep(rt, step, parent.stepCount, site);
  const stepCount = def.steps.length;
  const hasRollback = s.rollback !== null;
  if (stepCount !== parent.stepCount) {
    throw rt.error(
      "execution",
      `Nested defpact execution failed, parameter mismatch: PactId: ${parent.pactId} step count: ${stepCount} Parent step count: ${parent.stepCount}`,
      site,
    );
  }
  if (hasRollback !== parent.stepHasRollback) {
    throw rt.error(
      "execution",
      `Nested defpact execution failed, parameter mismatch: defpact id: ${parent.pactId} Rollback: ${hsBool(hasRollback)} Parent rollback:${hsBool(parent.stepHasRollback)}`,
      site,
    );
  }
  const previous = parent.nested.get(step.pactId);
  let exec: DefPactExec;
  if (previous === undefined) {
    if (step.step !== 0) {
      throw rt.error(
        "execution",
        `Requested nested defpact double execution: defpact id: ${step.pactId}`,
        site,
      );
    }
    exec = {
      stepCount,
      yield: null,
      step: step.step,
      pactId: step.pactId,
      continuation,
      stepHasRollback: hasRollback,
      nested: NO_NESTED,
    };
  } else if (hasRollback && previous.step === step.step) {
    exec = fromNested(previous, hasRollback);
  } else if (step.step > 0 && previous.step + 1 === step.step) {
    exec = { ...fromNested(previous, hasRollback), step: previous.step + 1 };
  } else {
    throw rt.error(
      "execution",
      `Requested nested defpact never started: defpact id: ${step.pactId}`,
      site,
    );
  }
  rt.pactExec = exec;
  const result = withStep(rt, { ...step, resume: exec.yield }, () =>
    runStep(rt, def, continuation, step, site),
  );
  const after = rt.pactExec as DefPactExec | null;
  if (after === null) throw invariant(rt, "defpact execution state missing after a step", site);
  if (nestedNotAdvanced(after, step)) {
    throw rt.error("execution", `Nested defpact not advanced ${after.pactId}`, site);
  }
  const nested = new Map(parent.nested);
  nested.set(step.pactId, toNested(after));
  rt.pactExec = { ...parent, nested };
  return result;
}

/**
 * Continues the defpact `rt.pactStep` names (Pact's `resumePact`): from its stored state, or
 * from `crossChain`, the state an SPV proof from another chain established.
 */
export function resumePact(rt: Runtime, crossChain: DefPactExec | null, site: CallSite): PactValue {
  const step = rt.pactStep;
  if (step === null) throw rt.error("execution", "No DefPactStep in the environment", site);
  const stored = readDefPactState(rt, step.pactId, site);
  // On chain, Pact 5 words these two otherwise than its REPL (`evalErrorToBoundedText`).
  const onChainId = abbrevOnChain(DEFPACT_ID_ON_CHAIN_CHARS, step.pactId);
  if (stored === "done") {
    const e = rt.error(
      "execution",
      `Requested defpact already completed:  defpact id:${step.pactId}`,
      site,
    );
    e.onChainMessage = `Requested defpact execution already completed for defpact id: ${onChainId}`;
    throw e;
  }
  if (stored === null && crossChain === null) {
    const e = rt.error(
      "execution",
      `No previous defpact execution found for defpact id:  ${step.pactId}`,
      site,
    );
    e.onChainMessage = `No previous defpact execution found for defpact id:  ${onChainId}`;
    throw e;
  }
  if (stored !== null && crossChain !== null) {
    const consistent =
      crossChain.step > stored.step + 1 &&
      sameContinuation(stored.continuation, crossChain.continuation) &&
      stored.stepCount === crossChain.stepCount;
    if (!consistent) {
      throw rt.error(
        "execution",
        `Crosschain defpact continuation error: defpact id:${step.step}`,
        site,
      );
    }
  }
  const exec = (crossChain ?? stored) as DefPactExec;
  if (step.pactId !== exec.pactId) {
    throw rt.error(
      "execution",
      `Requested defpact id: ${step.pactId} does not match context defpact id: ${exec.pactId}`,
      site,
    );
  }
  if (step.step < 0 || step.step >= exec.stepCount) {
    throw invalidStep(rt, step, exec.stepCount, site);
  }
  if (step.rollback && step.step !== exec.step) {
    throw rt.error(
      "execution",
      `Rollback mismatch in DefPactStep and defpact execution environment: defpact id: ${step.pactId} step rollback: ${hsBool(step.rollback)} DefPactExec rollback: ${hsBool(exec.stepHasRollback)}`,
      site,
    );
  }
  if (!step.rollback && step.step !== exec.step + 1) {
    throw rt.error(
      "execution",
      `Step mismatch in DefPactStep and defpact execution environment: defpact id: ${step.pactId} step: ${step.step} DefPactExec step: ${exec.step + 1}`,
      site,
    );
  }
  const resumed: DefPactStep = { ...step, resume: step.resume ?? exec.yield };
  return withStep(rt, resumed, () => applyPact(rt, exec.continuation, step, exec.nested, site));
}

function sameContinuation(a: DefPactContinuation, b: DefPactContinuation): boolean {
  if (a.def !== b.def || a.args.length !== b.args.length) return false;
  for (let i = 0; i < a.args.length; i++)
    if (!pactValueEquals(a.args[i]!, b.args[i]!)) return false;
  return true;
}

/** The stored state of defpact `pactId`: none, finished, or its state after its latest step. */
function readDefPactState(
  rt: Runtime,
  pactId: string,
  site: CallSite,
): DefPactExec | "done" | null {
  let text: string | null;
  try {
    text = rt.env.db.readDefPact(pactId);
  } catch (e) {
    throw dbFailure(rt, e, site);
  }
  if (text === null) return null;
  if (text === "null") return "done";
  try {
    return decodeDefPactExec(text);
  } catch (e) {
    throw rt.error(
      "execution",
      `Error during database operation: Failed to decode defpact state of ${pactId}: ${(e as Error).message}`,
      site,
    );
  }
}

function writeDefPactState(
  rt: Runtime,
  pactId: string,
  exec: DefPactExec | null,
  site: CallSite,
): void {
  if (rt.purity !== Purity.Impure) {
    throw rt.error(
      "execution",
      "Error during database operation: Operation disallowed in read-only or sys-only mode",
      site,
    );
  }
  try {
    rt.env.db.writeDefPact(pactId, exec === null ? "null" : encodeDefPactExec(exec));
  } catch (e) {
    throw dbFailure(rt, e, site);
  }
}

function dbFailure(rt: Runtime, e: unknown, site: CallSite): unknown {
  if (!(e instanceof DbError)) return e;
  return rt.error("execution", `Error during database operation: ${e.message}`, site);
}

/** The module reserved events are emitted from (`pact.X_YIELD`, `pact.X_RESUME`). */
const PACT_EVENT_MODULE = Object.freeze({ namespace: null, name: "pact" });

/**
 * `pact.X_RESUME` when the step resumed a cross-chain yield, `pact.X_YIELD` when it yielded to
 * another chain; both carry the chain, the defpact's name and its arguments.
 */
function emitCrossChainEvents(rt: Runtime, resumed: Yield | null, exec: DefPactExec): void {
  const name = exec.continuation.def;
  const args = exec.continuation.args;
  if (resumed?.provenance != null && resumed.source !== null) {
    emitEvent(rt, {
      name: "X_RESUME",
      params: [resumed.source, name, args],
      module: PACT_EVENT_MODULE,
      moduleHash: resumed.provenance.moduleHash,
    });
  }
  const y = exec.yield;
  if (y?.provenance != null) {
    emitEvent(rt, {
      name: "X_YIELD",
      params: [y.provenance.targetChainId, name, args],
      module: PACT_EVENT_MODULE,
      moduleHash: y.provenance.moduleHash,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The node's entry point

/** A `cont` command's payload (its `data` already read into a Pact value). */
export interface ContinuationPayload {
  readonly pactId: string;
  readonly step: number;
  readonly rollback: boolean;
  /** The transaction data `read-msg` reads; when absent, the environment's is kept. */
  readonly data?: PactValue;
  /** The SPV proof (base64url text) of the source chain's yield, for a cross-chain step. */
  readonly proof: string | null;
}

/**
 * Verifies the SPV proof of a cross-chain continuation and returns the defpact state it proves
 * (the node supplies it; Pact's `_spvVerifyContinuation`). Throws an `Error` whose message says
 * why the proof is not valid.
 */
export interface ContinuationVerifier {
  verifyContinuation(proof: string): DefPactExec;
}

/** Reported for a cross-chain continuation when no verifier is given (as Pact's `noSPVSupport`). */
export const NO_SPV_SUPPORT = "Cross-chain continuations not supported";

/** Where errors of a continuation without code point to. */
const CONTINUATION_SITE = new CallSite(
  { line: 0, col: 0, endLine: 0, endCol: 0, start: 0, end: 0 },
  "",
);

/**
 * Runs a `cont` command (Pact's `evalContinuation`): the step `payload` names of the defpact
 * `payload.pactId`, from its stored state, or — with a proof — from the state the proof
 * establishes. Afterwards `rt.pactExec` is the command result's `continuation` (encode it with
 * `encodeDefPactExec`) and `rt.events` its events. Run it inside the command's transaction.
 */
export function continueDefPact(
  rt: Runtime,
  payload: ContinuationPayload,
  verifier: ContinuationVerifier | null = null,
): PactValue {
  if (payload.data !== undefined) rt.env.data = payload.data;
  let crossChain: DefPactExec | null = null;
  if (payload.proof !== null) {
    if (verifier === null) {
      throw new PactError("execution", `Continuation Error: ${NO_SPV_SUPPORT}`);
    }
    try {
      crossChain = verifier.verifyContinuation(payload.proof);
    } catch (e) {
      if (e instanceof PactError) throw e;
      throw new PactError("execution", `Continuation Error: ${(e as Error).message}`);
    }
  }
  const previous = rt.pactStep;
  rt.pactStep = {
    step: payload.step,
    rollback: payload.rollback,
    pactId: payload.pactId,
    resume: crossChain === null ? null : crossChain.yield,
  };
  try {
    return resumePact(rt, crossChain, CONTINUATION_SITE);
  } finally {
    rt.pactStep = previous;
  }
}
