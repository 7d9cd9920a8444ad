/** The node's log: lines with a level, the ones below the configured level left out. */
import type { LogLevel } from "./options.ts";

const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

export interface NodeLogger {
  debug(line: string): void;
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** A logger writing lines at `level` and above to `write` (standard output by default). */
export function makeLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): NodeLogger {
  const at = (l: LogLevel) => (RANK[l] >= RANK[level] ? write : () => {});
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
