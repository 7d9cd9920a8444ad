/**
 * Turns IR into JavaScript closures, once per function body: each node becomes a function
 * `(rt, frame) => value` that calls its children's closures directly. Nothing is looked up by name
 * at run time, and call sites are objects made here, so a native call allocates only its argument
 * array.
 */

import {
  type DefCapDef,
  DefConstDef,
  type DefunDef,
  FnTag,
  type LambdaInfo,
  type Node,
  type TermDefinition,
} from "../compile/ir.ts";
import { chargeLiteral, chargeTypecheck, chargeUncons, type PactGasMeter } from "../gas/index.ts";
import { PactError } from "../runtime/errors.ts";
import { expectedPactValueError, notBoolError } from "../runtime/native-errors.ts";
import { isCallable, type NativeDef, type RuntimeValue } from "../runtime/types.ts";
import type { CapToken, PactValue } from "../values/types.ts";
import {
  CallSite,
  LambdaClosure,
  type ModRefFunction,
  NativeFunction,
  PartialClosure,
  type TaggedCallable,
} from "./callables.ts";
import { evalCapability } from "./capabilities.ts";
import { pretty } from "./display.ts";
import type { Runtime } from "./runtime.ts";
import { matchesType, typecheckError } from "./typecheck.ts";
import { type Code, codeOf, type Frame, Purity, toSlot } from "./types.ts";

/** The code of a defun's or defcap's body, generated on first use. */
export function bodyCode(def: DefunDef | DefCapDef): Code {
  let code = codeOf(def.code);
  if (code === undefined) {
    const info = { params: def.params, frameSize: def.frameSize, body: def.body!, code: undefined };
    code = codegenLambda(info, def.source.file);
    def.code = toSlot(code);
  }
  return code;
}

/** Generates (once) the code of a lambda or function body. */
export function codegenLambda(info: LambdaInfo, file: string): Code {
  let code = codeOf(info.code);
  if (code === undefined) {
    code = gen(info.body, file);
    info.code = toSlot(code);
  }
  return code;
}

function gen(node: Node, file: string): Code {
  switch (node.op) {
    case "const": {
      const value = node.value;
      return () => value;
    }
    case "local":
      return genLocal(node.depth, node.index);
    case "def":
      return genDef(node.def, new CallSite(node.span, file));
    case "native": {
      const fn = new NativeFunction(node.native, new CallSite(node.span, file));
      return () => fn;
    }
    case "dynamic": {
      const ref = genLocal(node.depth, node.index);
      const site = new CallSite(node.span, file);
      const { ref: refName, member } = node;
      return (rt, f) => rt.dynamicMember(ref(rt, f), refName, member, site);
    }
    case "call-native":
      return genNativeCall(
        node.native,
        node.args.map((a) => gen(a, file)),
        new CallSite(node.span, file),
      );
    case "call-defun":
      return genDefunCall(
        node.def,
        node.args.map((a) => gen(a, file)),
        new CallSite(node.span, file),
      );
    case "apply": {
      const fn = gen(node.fn, file);
      const args = node.args.map((a) => gen(a, file));
      const site = new CallSite(node.span, file);
      return (rt, f) => {
        const callee = fn(rt, f);
        if (!isCallable(callee))
          throw rt.error("execution", "Cannot apply value to non-closure", site);
        if ((callee as TaggedCallable).tag === FnTag.Partial) {
          throw rt.error(
            "execution",
            "Attempted to apply a closure outside of native callsite",
            site,
          );
        }
        return rt.apply(callee, evalArgs(args, rt, f), site);
      };
    }
    case "lambda": {
      const info = node.lambda;
      codegenLambda(info, file);
      return (_rt, f) => new LambdaClosure(info, f);
    }
    case "let": {
      const value = gen(node.value, file);
      const body = gen(node.body, file);
      const index = node.index;
      const type = node.type;
      if (type === null) {
        return (rt, f) => {
          f[index] = value(rt, f);
          return body(rt, f);
        };
      }
      const site = new CallSite(node.span, file);
      return (rt, f) => {
        const v = value(rt, f);
        const gas = rt.env.gas;
        if (gas.charging === true) chargeTypecheck(gas as PactGasMeter, v, type);
        if (!isCallable(v) && !matchesType(v, type)) throw rt.locate(typecheckError(v, type), site);
        f[index] = v;
        return body(rt, f);
      };
    }
    case "seq": {
      const items = node.items.map((i) => gen(i, file));
      const sites = node.items.map((i) => new CallSite(i.span, file));
      const last = items.length - 1;
      return (rt, f) => {
        for (let i = 0; i < last; i++) saturated(items[i]!(rt, f), rt, sites[i]!);
        return items[last]!(rt, f);
      };
    }
    case "list": {
      const items = node.items.map((i) => gen(i, file));
      const site = new CallSite(node.span, file);
      return (rt, f) => {
        const gas = rt.env.gas;
        if (gas.charging === true) chargeLiteral(gas as PactGasMeter, items.length);
        const out: PactValue[] = new Array(items.length);
        for (let i = 0; i < items.length; i++) out[i] = pactValue(items[i]!(rt, f), rt, site);
        return out;
      };
    }
    case "object": {
      const keys = node.keys;
      const values = node.values.map((v) => gen(v, file));
      const site = new CallSite(node.span, file);
      return (rt, f) => {
        const gas = rt.env.gas;
        if (gas.charging === true) chargeLiteral(gas as PactGasMeter, keys.length);
        const out = new Map<string, PactValue>();
        for (let i = 0; i < keys.length; i++)
          out.set(keys[i]!, pactValue(values[i]!(rt, f), rt, site));
        return out;
      };
    }
    case "if": {
      const cond = gen(node.cond, file);
      const whenTrue = gen(node.whenTrue, file);
      const whenFalse = gen(node.whenFalse, file);
      const site = new CallSite(node.span, file);
      return (rt, f) => {
        const c = cond(rt, f);
        if (c === true) return whenTrue(rt, f);
        if (c === false) return whenFalse(rt, f);
        throw notBool(c, rt, site);
      };
    }
    case "and":
    case "or": {
      const left = gen(node.left, file);
      const right = gen(node.right, file);
      const site = new CallSite(node.span, file);
      const shortCircuit = node.op === "or";
      return (rt, f) => {
        const a = left(rt, f);
        if (a === shortCircuit) return a;
        if (a !== !shortCircuit) throw notBool(a, rt, site);
        const b = right(rt, f);
        if (typeof b !== "boolean") throw notBool(b, rt, site);
        return b;
      };
    }
    case "enforce": {
      const cond = gen(node.cond, file);
      const message = gen(node.message, file);
      const site = new CallSite(node.span, file);
      return (rt, f) => {
        // Inlined `withPurity`: no closure per `enforce`.
        const previous = rt.purity;
        let c: RuntimeValue;
        if (previous >= Purity.ReadOnly) c = cond(rt, f);
        else {
          rt.purity = Purity.ReadOnly;
          try {
            c = cond(rt, f);
          } finally {
            rt.purity = previous;
          }
        }
        if (c === true) return true;
        if (c !== false) throw notBool(c, rt, site);
        throw rt.error("user", expectString(message(rt, f), rt, site), site);
      };
    }
    case "enforce-one": {
      const message = gen(node.message, file);
      const site = new CallSite(node.span, file);
      if (node.conds === null) {
        return (rt) => {
          throw rt.error(
            "execution",
            "native execution failure, enforce-one failed with message: enforce-one: expected a list of conditions",
            site,
          );
        };
      }
      const conds = node.conds.map((c) => gen(c, file));
      return (rt, f) => {
        for (const cond of conds) {
          const saved = rt.caps.snapshot();
          let ok: RuntimeValue;
          try {
            ok = cond(rt, f);
          } catch (e) {
            if (!(e instanceof PactError) || e.kind !== "user") throw e;
            rt.caps = saved;
            chargeEnforceOne(rt);
            continue;
          }
          chargeEnforceOne(rt);
          if (ok === true) return true;
          if (ok !== false) throw notBool(ok, rt, site);
        }
        throw rt.error("user", expectString(message(rt, f), rt, site), site);
      };
    }
    case "try": {
      const fallback = gen(node.fallback, file);
      const body = gen(node.body, file);
      return (rt, f) => {
        const gas = rt.env.gas;
        if (gas.charging === true) chargeUncons(gas as PactGasMeter);
        const saved = rt.caps.snapshot();
        const events = rt.events.length;
        try {
          return withPurity(rt, Purity.ReadOnly, () => body(rt, f));
        } catch (e) {
          if (!(e instanceof PactError) || e.kind !== "user") throw e;
          rt.caps = saved;
          rt.events.length = events;
          return fallback(rt, f);
        }
      };
    }
    case "error": {
      const message = gen(node.message, file);
      const site = new CallSite(node.span, file);
      return (rt, f) => {
        throw rt.error("user", expectString(message(rt, f), rt, site), site);
      };
    }
    case "pure": {
      const body = gen(node.body, file);
      return (rt, f) => withPurity(rt, Purity.ReadOnly, () => body(rt, f));
    }
    case "with-capability": {
      const cap = gen(node.cap, file);
      const body = gen(node.body, file);
      const site = new CallSite(node.span, file);
      return (rt, f) => {
        if (rt.inCap > 0)
          throw rt.error("execution", "Form illegal within defcap with-capability", site);
        const token = cap(rt, f);
        if (
          isCallable(token) ||
          typeof token !== "object" ||
          token === null ||
          (token as { kind?: unknown }).kind !== "cap-token"
        ) {
          if (isCallable(token)) throw rt.locate(expectedPactValueError(), site);
          throw rt.error(
            "execution",
            `expected capability token value, got: ${pretty(token)}`,
            site,
          );
        }
        return evalCapability(rt, token as CapToken, site, () => body(rt, f));
      };
    }
    case "create-user-guard": {
      const target = node.target;
      const args = node.args.map((a) => gen(a, file));
      const site = new CallSite(node.span, file);
      return (rt, f) => {
        if (target === null) {
          throw rt.error(
            "execution",
            "native execution failure, create-user-guard failed with message: create-user-guard: expected function application of a top-level function",
            site,
          );
        }
        const values = evalArgs(args, rt, f).map((v) => pactValue(v, rt, site));
        if (target.defKind !== "defun") {
          throw rt.error(
            "execution",
            `User guard closure ${target.qualifiedName} must be defun, got${target.defKind}`,
            site,
          );
        }
        return { kind: "user-guard", fun: target.qualifiedName, args: values };
      };
    }
    case "cover": {
      const body = gen(node.body, file);
      const { file: covered, line, fn } = node;
      if (fn !== null) {
        return (rt, f) => {
          rt.coverage?.enter(covered, fn);
          return body(rt, f);
        };
      }
      return (rt, f) => {
        rt.coverage?.hit(covered, line);
        return body(rt, f);
      };
    }
  }
}

function genLocal(depth: number, index: number): Code {
  switch (depth) {
    case 0:
      return (_rt, f) => f[index] as RuntimeValue;
    case 1:
      return (_rt, f) => (f[0] as Frame)[index] as RuntimeValue;
    case 2:
      return (_rt, f) => ((f[0] as Frame)[0] as Frame)[index] as RuntimeValue;
    default:
      return (_rt, f) => {
        let frame = f;
        for (let d = 0; d < depth; d++) frame = frame[0] as Frame;
        return frame[index] as RuntimeValue;
      };
  }
}

function genDef(def: TermDefinition, site: CallSite): Code {
  if (def instanceof DefConstDef) {
    return (rt) => {
      if (def.value === undefined) {
        throw rt.error(
          "execution",
          `Fatal execution error, invariant violated: Defconst was not evaluated prior to execution: ${def.fullyQualifiedName}`,
          site,
        );
      }
      return def.value;
    };
  }
  if (def.defKind === "deftable") {
    const table = def.table;
    return () => table;
  }
  return () => def;
}

function evalArgs(args: readonly Code[], rt: Runtime, f: Frame): RuntimeValue[] {
  const out: RuntimeValue[] = new Array(args.length);
  for (let i = 0; i < args.length; i++) out[i] = args[i]!(rt, f);
  return out;
}

const TOO_MANY_ARGS = "Attempted to apply a closure to too many arguments";

/** A call of a known native: the argument count decides at compile time what happens. */
function genNativeCall(native: NativeDef, args: readonly Code[], site: CallSite): Code {
  const n = args.length;
  if (n > native.maxArgs) {
    return (rt, f) => {
      evalArgs(args, rt, f);
      throw rt.error("execution", TOO_MANY_ARGS, site);
    };
  }
  if (n < native.minArgs) {
    const fn = new NativeFunction(native, site);
    if (n === 0) return () => fn;
    return (rt, f) => new PartialClosure(fn, evalArgs(args, rt, f), native.minArgs);
  }
  switch (n) {
    case 0:
      return (rt) => rt.invokeNative(native, [], site);
    case 1: {
      const a0 = args[0]!;
      return (rt, f) => rt.invokeNative(native, [a0(rt, f)], site);
    }
    case 2: {
      const a0 = args[0]!;
      const a1 = args[1]!;
      return (rt, f) => {
        const x = a0(rt, f);
        return rt.invokeNative(native, [x, a1(rt, f)], site);
      };
    }
    case 3: {
      const a0 = args[0]!;
      const a1 = args[1]!;
      const a2 = args[2]!;
      return (rt, f) => {
        const x = a0(rt, f);
        const y = a1(rt, f);
        return rt.invokeNative(native, [x, y, a2(rt, f)], site);
      };
    }
    default:
      return (rt, f) => rt.invokeNative(native, evalArgs(args, rt, f), site);
  }
}

function genDefunCall(def: DefunDef, args: readonly Code[], site: CallSite): Code {
  switch (args.length) {
    case 0:
      return (rt) => rt.callDefun(def, [], site);
    case 1: {
      const a0 = args[0]!;
      return (rt, f) => rt.callDefun(def, [a0(rt, f)], site);
    }
    case 2: {
      const a0 = args[0]!;
      const a1 = args[1]!;
      return (rt, f) => {
        const x = a0(rt, f);
        return rt.callDefun(def, [x, a1(rt, f)], site);
      };
    }
    default:
      return (rt, f) => rt.callDefun(def, evalArgs(args, rt, f), site);
  }
}

/** Each condition `enforce-one` tries costs one list step. */
function chargeEnforceOne(rt: Runtime): void {
  const gas = rt.env.gas;
  if (gas.charging === true) chargeUncons(gas as PactGasMeter);
}

/** Runs `body` with at most `purity` database access, restoring the previous level. */
export function withPurity<T>(rt: Runtime, purity: Purity, body: () => T): T {
  const previous = rt.purity;
  if (previous >= purity) return body();
  rt.purity = purity;
  try {
    return body();
  } finally {
    rt.purity = previous;
  }
}

/** Values in lists and objects, and function arguments, must not be functions. */
function pactValue(v: RuntimeValue, rt: Runtime, site: CallSite): PactValue {
  if (isCallable(v)) throw rt.locate(expectedPactValueError(), site);
  return v;
}

function notBool(v: RuntimeValue, rt: Runtime, site: CallSite): PactError {
  return rt.locate(notBoolError(v), site) as PactError;
}

function expectString(v: RuntimeValue, rt: Runtime, site: CallSite): string {
  if (typeof v === "string") return v;
  if (isCallable(v)) throw rt.locate(expectedPactValueError(), site);
  throw rt.error("execution", `expected string value, got: ${pretty(v)}`, site);
}

/**
 * In a sequence, a value that is a partial application means arguments were missing (Pact's
 * `enforceSaturatedApp`).
 */
function saturated(v: RuntimeValue, rt: Runtime, site: CallSite): void {
  if (!isCallable(v) || (v as TaggedCallable).tag !== FnTag.Partial) return;
  const p = v as PartialClosure;
  const given = p.args.length;
  const expected = given + p.arity;
  const target =
    p.target.tag === FnTag.ModRefFunction
      ? (p.target as unknown as ModRefFunction).target
      : p.target;
  const what =
    target.tag === FnTag.Native
      ? `native function ${p.name}`
      : target.tag === FnTag.Defun
        ? `function ${(target as unknown as DefunDef).fullyQualifiedName}`
        : "lambda";
  throw rt.error(
    "execution",
    `Incorrect number of arguments (${given}) for ${what} supplied; expected (${expected})`,
    site,
  );
}
