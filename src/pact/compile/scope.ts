/**
 * Lexical scopes of local variables during compilation. Each function body owns a frame; every
 * parameter and `let` binding gets its own slot, so a local compiles to (frames up, slot).
 */

/** One function body being compiled: its nesting level and how many frame slots it uses. */
export class FrameLayout {
  /** Slot 0 holds the enclosing frame. */
  size = 1;
  constructor(
    readonly level: number,
    readonly parent: FrameLayout | null,
  ) {}

  allocate(): number {
    return this.size++;
  }

  /** A frame for a function nested in this one. */
  nested(): FrameLayout {
    return new FrameLayout(this.level + 1, this);
  }
}

/** An immutable list of bindings, innermost first. */
export interface Locals {
  readonly name: string;
  readonly layout: FrameLayout;
  readonly index: number;
  readonly next: Locals | null;
}

export function bind(locals: Locals | null, name: string, layout: FrameLayout): Locals {
  return { name, layout, index: layout.allocate(), next: locals };
}

export interface LocalAddress {
  readonly depth: number;
  readonly index: number;
}

/** Where `name` lives, seen from a body compiled in `layout`; null when it is not a local. */
export function lookupLocal(
  locals: Locals | null,
  name: string,
  layout: FrameLayout,
): LocalAddress | null {
  for (let l = locals; l !== null; l = l.next) {
    if (l.name === name) return { depth: layout.level - l.layout.level, index: l.index };
  }
  return null;
}
