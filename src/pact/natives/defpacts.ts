/**
 * Defpact natives: `yield` (also to another chain), `resume`, `pact-id` and `continue`, and the
 * REPL's `continue-pact` and `pact-state`. The state machine they drive is
 * src/pact/eval/defpact-engine.ts.
 */
import { type CallSite, runtimeOf } from "../eval/callables.ts";
import { resumePact } from "../eval/defpact-engine.ts";
import type { DefPactStep, Provenance, Yield } from "../eval/defpact-exec.ts";
import type { Runtime } from "../eval/runtime.ts";
import { BASIC_WORK_GAS } from "../gas/costs.ts";
import { PactError } from "../runtime/errors.ts";
import { argsError } from "../runtime/native-errors.ts";
import { isCallable, type NativeDef, type RuntimeValue } from "../runtime/types.ts";
import type { PactObject, PactValue } from "../values/types.ts";

/** Flat cost of `resume` (the reference's table). */
export const RESUME_GAS = 500;

function isObject(v: RuntimeValue | undefined): v is PactObject {
  return v instanceof Map;
}

function notInDefPact(): PactError {
  return new PactError(
    "execution",
    "Attempted to fetch defpact data, but currently not within defpact execution",
  );
}

/** The module of the innermost function running (Pact's `getCallingModule`). */
function callingModuleOf(rt: Runtime, site: CallSite) {
  const fn = rt.innermost();
  if (fn === null) {
    throw rt.error(
      "execution",
      "Fatal execution error, invariant violated: no calling module",
      site,
    );
  }
  return rt.getModule(fn.module.name, site);
}

/** `(yield obj)`, `(yield obj target-chain)`: the data the defpact's next step resumes with. */
const YIELD: NativeDef = {
  name: "yield",
  minArgs: 1,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const data = args[0];
    const target = args[1];
    if (!isObject(data) || (args.length === 2 && typeof target !== "string")) {
      throw argsError("yield", args);
    }
    const rt = runtimeOf(ctx);
    const exec = rt.pactExec;
    if (exec === null) {
      throw new PactError("execution", "Try to yield a value outside a running defpact execution");
    }
    if (typeof target !== "string") {
      rt.pactExec = { ...exec, yield: { data, provenance: null, source: null } };
      return data;
    }
    const module = callingModuleOf(rt, ctx as CallSite);
    if (exec.stepHasRollback) {
      throw new PactError(
        "execution",
        "Program encountered an unhandled raised error: Cross-chain yield not allowed in step with rollback",
      );
    }
    const provenance: Provenance = { targetChainId: target, moduleHash: module.info.hash };
    rt.pactExec = {
      ...exec,
      yield: { data, provenance, source: rt.env.chainData.chainId },
    };
    return data;
  },
};

function renderProvenance(p: Provenance): string {
  return `(Provenance ${p.targetChainId} ${p.moduleHash})`;
}

/**
 * A cross-chain yield may only be resumed on its target chain, by the module that yielded (or a
 * module blessing that module's hash): its provenance must be one of those.
 */
function enforceProvenance(rt: Runtime, y: Yield, site: CallSite): void {
  const p = y.provenance;
  if (p === null) return;
  const module = callingModuleOf(rt, site);
  const chain = rt.env.chainData.chainId;
  const hashes = [module.info.hash];
  if (module.kind === "module") hashes.push(...module.blessed);
  const expected = hashes.map((moduleHash) => ({ targetChainId: chain, moduleHash }));
  if (expected.some((e) => e.targetChainId === p.targetChainId && e.moduleHash === p.moduleHash)) {
    return;
  }
  throw new PactError(
    "execution",
    `Yield provenance does not match, received ${renderProvenance(p)}, expected [${expected.map(renderProvenance).join(", ")}]`,
  );
}

/** `(resume { "f" := x } body)`: binds what the previous step yielded. */
const RESUME: NativeDef = {
  name: "resume",
  minArgs: 1,
  maxArgs: 1,
  gas: RESUME_GAS,
  impl(ctx, args) {
    const fn = args[0];
    if (fn === undefined || !isCallable(fn)) throw argsError("resume", args);
    const rt = runtimeOf(ctx);
    const step = rt.pactStep;
    if (step === null) {
      throw new PactError("execution", "No active defpact execution in the environment");
    }
    const y = step.resume;
    if (y === null) {
      throw new PactError(
        "execution",
        `No yield value found from previous pact step. Current step: ${step.step} defpact Id: ${step.pactId}`,
      );
    }
    enforceProvenance(rt, y, ctx as CallSite);
    return ctx.apply(fn, [y.data]);
  },
};

const PACT_ID: NativeDef = {
  name: "pact-id",
  minArgs: 0,
  maxArgs: 0,
  gas: BASIC_WORK_GAS,
  impl(ctx) {
    const exec = runtimeOf(ctx).pactExec;
    if (exec === null) throw notInDefPact();
    return exec.pactId;
  },
};

/**
 * `(continue (p args))`: continues a nested defpact. Applying a defpact inside a step already
 * runs the nested defpact's step of the same number, so this returns its value.
 */
const CONTINUE: NativeDef = {
  name: "continue",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    return args[0]!;
  },
};

/** The core defpact natives, in the reference's `-b` order. */
export const DEFPACT_NATIVES: readonly NativeDef[] = [YIELD, RESUME, CONTINUE, PACT_ID];

// ---------------------------------------------------------------------------------------------
// REPL

/**
 * `(continue-pact step [rollback [pact-id [yield]]])`: runs a step of a stored defpact, as a
 * `cont` command would. Without an id, continues the defpact the transaction last ran; a given
 * yield object replaces the one stored (keeping its provenance).
 */
const CONTINUE_PACT: NativeDef = {
  name: "continue-pact",
  minArgs: 1,
  maxArgs: 4,
  gas: 0,
  impl(ctx, args) {
    const [stepArg, rollbackArg = false, idArg, yieldArg] = args;
    if (
      typeof stepArg !== "bigint" ||
      typeof rollbackArg !== "boolean" ||
      (args.length >= 3 && typeof idArg !== "string") ||
      (args.length === 4 && !isObject(yieldArg))
    ) {
      throw argsError("continue-pact", args);
    }
    const rt = runtimeOf(ctx);
    const exec = rt.pactExec;
    const given = typeof idArg === "string" ? idArg : null;
    const userYield = isObject(yieldArg) ? yieldArg : null;
    let pactId: string;
    let resume: Yield | null;
    if (exec === null) {
      if (given === null) {
        throw new PactError("execution", "No defpact id or execution environment supplied");
      }
      pactId = given;
      resume = userYield === null ? null : { data: userYield, provenance: null, source: null };
    } else {
      pactId = given ?? exec.pactId;
      resume =
        userYield === null
          ? exec.yield
          : { data: userYield, provenance: exec.yield?.provenance ?? null, source: null };
    }
    const step: DefPactStep = { step: Number(stepArg), rollback: rollbackArg, pactId, resume };
    rt.pactExec = null;
    const previous = rt.pactStep;
    rt.pactStep = step;
    try {
      return resumePact(rt, null, ctx as CallSite);
    } finally {
      rt.pactStep = previous;
    }
  },
};

/** `(pact-state [clear])`: the running defpact's id, step and yield (false when none). */
const PACT_STATE: NativeDef = {
  name: "pact-state",
  minArgs: 0,
  maxArgs: 1,
  gas: 0,
  impl(ctx, args) {
    const clear = args.length === 0 ? false : args[0];
    if (typeof clear !== "boolean") throw argsError("pact-state", args);
    const rt = runtimeOf(ctx);
    const exec = rt.pactExec;
    if (exec === null) throw new PactError("user", "pact-state: no pact exec in context");
    if (clear) rt.pactExec = null;
    return new Map<string, PactValue>([
      ["pactId", exec.pactId],
      ["yield", exec.yield === null ? false : exec.yield.data],
      ["step", BigInt(exec.step)],
    ]);
  },
};

/** The REPL's defpact natives. */
export const REPL_DEFPACT_NATIVES: readonly NativeDef[] = [CONTINUE_PACT, PACT_STATE];
