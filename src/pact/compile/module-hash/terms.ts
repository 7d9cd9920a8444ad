/**
 * Renaming and encoding of desugared terms, as Pact 5's renamer (`renameTerm`) resolves them and
 * its CBOR encoder writes them. Locals become de Bruijn indices (`NBound`: how many binders lie
 * between the use and its binder); free names become `NTopLevel module hash` (with a placeholder
 * hash for the module being hashed), `NModRef` for module references, `NDynRef` for `ref::f`.
 * Every term node ends with its source info: erased (CBOR null) for the hash, its 0-based line
 * (Pact's `LineInfo`) in the form Pact stores.
 */
import type { ParsedName } from "../../syntax/ast.ts";
import type { Span } from "../../syntax/span.ts";
import type { CborWriter } from "../../values/cbor.ts";
import { type HashedModule, hashBytes, maybeType, moduleName } from "../../values/cbor-values.ts";
import type { ModuleName } from "../../values/types.ts";
import type { CompileUnit } from "../context.ts";
import type { ModuleInfo } from "../ir.ts";
import { resolveBareName, resolveQualifiedName } from "../resolve.ts";
import { resolveType } from "../type-resolve.ts";
import { builtinIndex } from "./builtins.ts";
import type { DArg, DTerm } from "./desugar.ts";

/** Locals in scope, innermost first; `level` counts the binders outside this one. */
export interface Locals {
  readonly name: string;
  readonly level: number;
  readonly next: Locals | null;
}

/** `args` bound in order after `depth` binders. */
export function bindAll(
  locals: Locals | null,
  args: readonly DArg[],
  depth: number,
): Locals | null {
  let result = locals;
  for (let i = 0; i < args.length; i++) {
    result = { name: args[i]!.name, level: depth + i, next: result };
  }
  return result;
}

export function lookup(locals: Locals | null, name: string): number | null {
  for (let l = locals; l !== null; l = l.next) if (l.name === name) return l.level;
  return null;
}

export class TermEncoder {
  /** The module being hashed, for the values of its constants. */
  readonly hashed: HashedModule;

  constructor(
    readonly w: CborWriter,
    /** Resolves the module's members, imports and top-level names. */
    readonly unit: CompileUnit,
    /** The module being hashed: its own members carry `placeholder` instead of a hash. */
    private readonly self: ModuleInfo,
    private readonly placeholder: Uint8Array,
    /** Whether infos are lines (the stored form) rather than erased (the hashed one). */
    private readonly lines = false,
  ) {
    this.hashed = { name: self.name, placeholder };
  }

  /** The hash a reference to a member of `module` carries. */
  hashOf(module: ModuleInfo): Uint8Array {
    return module === this.self ? this.placeholder : hashBytes(module.hash);
  }

  /** A node's info: its first line, or null where infos are erased. */
  info(span: Span): void {
    if (this.lines) this.w.word(span.line);
    else this.w.null();
  }

  /** `Arg`: name, optional type, info. */
  arg(a: DArg): void {
    this.w.listLen(3).text(a.name);
    maybeType(this.w, a.type === null ? null : resolveType(a.type, a.span, this.unit));
    this.info(a.span);
  }

  args(args: readonly DArg[]): void {
    this.w.list(args, (_, a) => this.arg(a));
  }

  term(t: DTerm, locals: Locals | null, depth: number): void {
    const w = this.w;
    switch (t.t) {
      case "var":
        w.listLen(3).word(0);
        this.name(t.name, t.span, locals, depth);
        break;
      case "lam":
        w.listLen(4).word(1);
        this.args(t.args);
        this.term(t.body, bindAll(locals, t.args, depth), depth + t.args.length);
        break;
      case "let":
        w.listLen(5).word(2);
        this.arg(t.arg);
        this.term(t.value, locals, depth);
        this.term(t.body, bindAll(locals, [t.arg], depth), depth + 1);
        break;
      case "app":
        w.listLen(4).word(3);
        this.term(t.fn, locals, depth);
        w.list(t.args, (_, x) => this.term(x, locals, depth));
        break;
      case "seq":
        w.listLen(4).word(4);
        this.term(t.first, locals, depth);
        this.term(t.rest, locals, depth);
        break;
      case "nullary":
        w.listLen(3).word(5);
        this.term(t.body, locals, depth);
        break;
      case "form":
        w.listLen(3).word(6);
        w.listLen(t.args.length + 1).word(t.form);
        for (const x of t.args) this.term(x, locals, depth);
        break;
      case "builtin":
        w.listLen(3).word(7).word(builtinIndex(t.name));
        break;
      case "const":
        w.listLen(3).word(8);
        this.literal(t.value);
        break;
      case "list":
        w.listLen(3).word(9);
        w.list(t.items, (_, x) => this.term(x, locals, depth));
        break;
      case "object":
        w.listLen(3).word(10);
        w.list(t.fields, (_, [field, value]) => {
          w.listLen(2).text(field);
          this.term(value, locals, depth);
        });
        break;
    }
    this.info(t.span);
  }

  private literal(v: Extract<DTerm, { t: "const" }>["value"]): void {
    const w = this.w;
    if (typeof v === "string") w.listLen(2).word(0).text(v);
    else if (typeof v === "bigint") w.listLen(2).word(1).integer(v);
    else if (typeof v === "boolean") w.listLen(2).word(4).bool(v);
    else if ("mantissa" in v) w.listLen(2).word(2).listLen(2).word(v.places).integer(v.mantissa);
    else w.listLen(1).word(3);
  }

  /** `Name`: the name as written (the member part of `m.f`) and what it refers to. */
  private name(n: ParsedName, span: Span, locals: Locals | null, depth: number): void {
    const w = this.w;
    switch (n.kind) {
      case "bare": {
        w.listLen(2).text(n.name);
        const level = lookup(locals, n.name);
        if (level !== null) {
          w.listLen(2)
            .word(0)
            .word(depth - level - 1);
          return;
        }
        this.free(resolveBareName(n.name, span, this.unit));
        return;
      }
      case "qualified":
        w.listLen(2).text(n.name);
        this.free(resolveQualifiedName(n.module, n.name, span, this.unit));
        return;
      case "dynamic": {
        w.listLen(2).text(n.ref);
        const level = lookup(locals, n.ref);
        if (level === null) throw new Error(`module hash: unbound module reference ${n.ref}`);
        w.listLen(2)
          .word(3)
          .listLen(2)
          .text(n.name)
          .word(depth - level - 1);
        return;
      }
    }
  }

  private free(r: ReturnType<typeof resolveBareName>): void {
    const w = this.w;
    if (r.kind === "def") {
      w.listLen(3).word(1);
      moduleName(w, r.def.module.name);
      w.byteString(this.hashOf(r.def.module));
      return;
    }
    w.listLen(3).word(2);
    moduleName(w, r.value.module);
    w.list(r.value.interfaces, (x, m: ModuleName) => moduleName(x, m));
  }
}
