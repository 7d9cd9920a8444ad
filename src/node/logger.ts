/**
 * The node's log: lines with a level, the ones below the configured level left out, and one
 * progress line for long work (progress.ts), shown at `info` and `debug`. A log line written
 * while a terminal shows the progress line takes its place; the next update redraws it below.
 */
import type { LogLevel } from "./options.ts";
import { ProgressLine, type TextOutput } from "./progress.ts";

const RANK: Readonly<Record<LogLevel, number>> = {
  debug: 0,
  info: 1,
  warn: 2,
  error: 3,
};

export interface NodeLogger {
  debug(line: string): void;
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
  /**
   * Whether lines at `level` are written: a caller whose line costs work to build (a block's
   * transactions) asks first, so a level that is off costs nothing.
   */
  enabled(level: LogLevel): boolean;
  /** Shows how far long work has got (redrawn in place on a terminal, throttled). */
  progress(line: string): void;
  /** Ends the progress with a final line. */
  progressDone(line: string): void;
}

/** A logger writing lines at `level` and above to `out` (standard output by default). */
export function makeLogger(level: LogLevel, out: TextOutput = process.stdout): NodeLogger {
  const progress = new ProgressLine(out);
  const write = (line: string) => {
    progress.clear();
    out.write(`${line}\n`);
  };
  const ignore = () => {};
  const at = (l: LogLevel) => (RANK[l] >= RANK[level] ? write : ignore);
  const showsProgress = RANK.info >= RANK[level];
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    enabled: (l) => RANK[l] >= RANK[level],
    progress: showsProgress ? (line) => progress.update(line) : ignore,
    progressDone: showsProgress ? (line) => progress.done(line) : ignore,
  };
}
