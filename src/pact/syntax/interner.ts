/**
 * Interns identifier text during lexing: each distinct word of the source is sliced out once,
 * and every later occurrence reuses that string. The table is seeded with the keywords, so one
 * lookup also tells keywords from identifiers. The hash is computed by the lexer as it scans.
 */
import { Tk } from "./token-buffer.ts";
import { TOKEN_KINDS } from "./tokens.ts";

const INITIAL_SLOTS = 1024;

/** FNV-1a step over one UTF-16 code unit. Start from `HASH_SEED`. */
export function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 16777619);
}
export const HASH_SEED = 0x811c9dc5 | 0;

export class Interner {
  private texts: (string | undefined)[] = new Array(INITIAL_SLOTS);
  private hashes = new Int32Array(INITIAL_SLOTS);
  private kinds = new Uint8Array(INITIAL_SLOTS);
  private used = 0;
  /** The kind of the word found by the last `intern` call. */
  kind = 0;

  constructor() {
    for (let code = Tk.Let; code < TOKEN_KINDS.length; code++) {
      const word = TOKEN_KINDS[code]!;
      let hash = HASH_SEED;
      for (let k = 0; k < word.length; k++) hash = hashStep(hash, word.charCodeAt(k));
      this.insert(word, hash, code);
    }
  }

  /**
   * The interned text of `src[start, end)` whose hash is `hash`; sets `kind` to its keyword
   * kind, or `Tk.Ident`.
   */
  intern(src: string, start: number, end: number, hash: number): string {
    const len = end - start;
    const mask = this.texts.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const text = this.texts[slot];
      if (text === undefined) break;
      if (this.hashes[slot] === hash && text.length === len && sameText(text, src, start)) {
        this.kind = this.kinds[slot]!;
        return text;
      }
    }
    const text = src.slice(start, end);
    this.insert(text, hash, Tk.Ident);
    this.kind = Tk.Ident;
    return text;
  }

  private insert(text: string, hash: number, kind: number): void {
    if (2 * (this.used + 1) > this.texts.length) this.grow();
    const mask = this.texts.length - 1;
    let slot = hash & mask;
    while (this.texts[slot] !== undefined) slot = (slot + 1) & mask;
    this.texts[slot] = text;
    this.hashes[slot] = hash;
    this.kinds[slot] = kind;
    this.used++;
  }

  private grow(): void {
    const { texts, hashes, kinds } = this;
    this.texts = new Array(texts.length * 2);
    this.hashes = new Int32Array(texts.length * 2);
    this.kinds = new Uint8Array(texts.length * 2);
    this.used = 0;
    for (let slot = 0; slot < texts.length; slot++) {
      const text = texts[slot];
      if (text !== undefined) this.insert(text, hashes[slot]!, kinds[slot]!);
    }
  }
}

function sameText(text: string, src: string, start: number): boolean {
  for (let k = 0; k < text.length; k++) {
    if (text.charCodeAt(k) !== src.charCodeAt(start + k)) return false;
  }
  return true;
}
