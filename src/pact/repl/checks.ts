/**
 * Checks the REPL makes before running code: no binder may shadow a native (Pact 5 rejects it
 * when loading a file), and module code may not use REPL natives unless enabled.
 */
import { desugarError } from "../compile/context.ts";
import { PactError } from "../runtime/errors.ts";
import type { NativeDef } from "../runtime/types.ts";
import type { Arg, Expr, Module, ReplTopLevel } from "../syntax/ast.ts";
import type { Span } from "../syntax/span.ts";

interface Shadow {
  readonly name: string;
  readonly span: Span;
  readonly context: string;
}

/**
 * Reports every binder that shadows a native through `report` (as Pact prints them), then fails
 * on the first one.
 */
export function checkShadowing(
  program: readonly ReplTopLevel[],
  natives: ReadonlyMap<string, NativeDef>,
  file: string,
  report: (span: Span, text: string) => void,
): void {
  const found: Shadow[] = [];
  const check = (name: string, span: Span, context: string) => {
    if (natives.has(name)) found.push({ name, span, context });
  };
  const expr = (e: Expr, context: string): void => {
    switch (e.kind) {
      case "let":
        for (const b of e.bindings) {
          check(b.arg.name, b.arg.span, context);
          expr(b.value, context);
        }
        for (const x of e.body) expr(x, context);
        return;
      case "lambda":
        for (const p of e.params) check(p.name, p.span, context);
        for (const x of e.body) expr(x, context);
        return;
      case "app":
        expr(e.fn, context);
        for (const x of e.args) expr(x, context);
        return;
      case "list":
        for (const x of e.items) expr(x, context);
        return;
      case "object":
        for (const f of e.fields) expr(f.value, context);
        return;
      case "binding":
        for (const x of e.body) expr(x, context);
        return;
      default:
        return;
    }
  };
  const def = (
    kind: string,
    module: string,
    d: { name: string; nameSpan: Span; params?: readonly Arg[] },
    bodies: readonly Expr[],
  ) => {
    const qn = `${module}.${d.name}`;
    check(d.name, d.nameSpan, `in the definition name of ${kind} ${qn}`);
    const params = d.params ?? [];
    for (let i = 0; i < params.length; i++) {
      const p = params[i]!;
      check(p.name, p.span, `in definition ${kind} ${qn} at argument position ${i}`);
    }
    for (const b of bodies) expr(b, `in the body of definition ${kind} ${qn}`);
  };
  for (const form of program) {
    switch (form.kind) {
      case "module":
        check(form.name, form.nameSpan, `in module name ${form.name}`);
        for (const d of form.defs) {
          switch (d.kind) {
            case "defun":
            case "defcap":
              def(d.kind, form.name, d, d.body);
              break;
            case "defconst":
              def(d.kind, form.name, d, [d.value]);
              break;
            case "defpact":
              def(
                d.kind,
                form.name,
                d,
                d.steps.flatMap((s) => (s.kind === "step" ? [s.expr] : [s.expr, s.rollback])),
              );
              break;
            default:
              def(d.kind, form.name, d, []);
          }
        }
        break;
      case "interface":
        check(form.name, form.nameSpan, `in interface name ${form.name}`);
        for (const d of form.defs)
          def(d.kind, form.name, d, d.kind === "defconst" ? [d.value] : []);
        break;
      case "defun":
        def("defun", "#repl", form, form.body);
        break;
      case "defconst":
        def("defconst", "#repl", form, [form.value]);
        break;
      case "use":
        break;
      default:
        expr(form, "in top level expression");
    }
  }
  for (const s of found)
    report(s.span, `Variable ${s.name} shadows native of the same name ${s.context}`);
  const first = found[0];
  if (first !== undefined) {
    throw desugarError(
      `Variable ${first.name} shadows native with the same name`,
      first.span,
      file,
    );
  }
}

/** Fails when module code names a REPL native (allowed after `(env-enable-repl-natives true)`). */
export function checkReplNativesInModule(
  module: Module,
  isReplNative: (name: string) => boolean,
  file: string,
): void {
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case "var":
        if (e.name.kind === "bare" && isReplNative(e.name.name)) {
          throw new PactError(
            "execution",
            "Program encountered an unhandled raised error: repl native disallowed in module code. If you want to use this, enable them with (env-enable-repl-natives true)",
            e.span,
            [],
            file,
          );
        }
        return;
      case "let":
        for (const b of e.bindings) visit(b.value);
        for (const x of e.body) visit(x);
        return;
      case "lambda":
        for (const x of e.body) visit(x);
        return;
      case "app":
        visit(e.fn);
        for (const x of e.args) visit(x);
        return;
      case "list":
        for (const x of e.items) visit(x);
        return;
      case "object":
        for (const f of e.fields) visit(f.value);
        return;
      case "binding":
        for (const x of e.body) visit(x);
        return;
      default:
        return;
    }
  };
  for (const d of module.defs) {
    switch (d.kind) {
      case "defun":
      case "defcap":
        d.body.forEach(visit);
        break;
      case "defconst":
        visit(d.value);
        break;
      case "defpact":
        for (const s of d.steps) {
          visit(s.expr);
          if (s.kind === "step-with-rollback") visit(s.rollback);
        }
        break;
      default:
        break;
    }
  }
}
