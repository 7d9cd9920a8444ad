/**
 * A progress line for long work (replaying stored blocks, proof-of-work mining, benchmarks): on a
 * terminal one line redrawn in place (`\r`), at most every {@link TTY_REDRAW_MS}; elsewhere (a
 * log file, a pipe) plain lines, at most one every {@link PLAIN_LINE_MS}, so logs stay short.
 */

/** Where progress goes: standard output or error, or anything with `write`. */
export interface TextOutput {
  write(text: string): unknown;
  /** True for a terminal (Node's `process.stdout.isTTY`). */
  readonly isTTY?: boolean | undefined;
}

/** The shortest time between two redraws of a terminal's progress line. */
export const TTY_REDRAW_MS = 100;
/** The shortest time between two plain progress lines. */
export const PLAIN_LINE_MS = 5_000;

/** Back to the line's start and erase it (carriage return, ANSI "erase to end of line"). */
const ERASE_LINE = "\r\x1b[K";

export class ProgressLine {
  private shown = false;
  private lastWrite = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly out: TextOutput,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** Shows `text` as the current progress (skipped when the last one is too recent). */
  update(text: string): void {
    const tty = this.out.isTTY === true;
    const now = this.nowMs();
    if (now - this.lastWrite < (tty ? TTY_REDRAW_MS : PLAIN_LINE_MS)) return;
    this.lastWrite = now;
    if (tty) {
      this.out.write(`${ERASE_LINE}${text}`);
      this.shown = true;
    } else {
      this.out.write(`${text}\n`);
    }
  }

  /** Erases the terminal's progress line, so that another line can be written in its place. */
  clear(): void {
    if (!this.shown) return;
    this.out.write(ERASE_LINE);
    this.shown = false;
  }

  /** Ends the progress with a last line, always written. */
  done(text: string): void {
    this.clear();
    this.out.write(`${text}\n`);
    this.lastWrite = Number.NEGATIVE_INFINITY;
  }
}
