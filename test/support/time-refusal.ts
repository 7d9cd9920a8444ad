/**
 * The words the node adds to a refusal of a command's times (admission.ts, `timeRefusalHint`),
 * written out for tests to compare answers with exactly, the node's time aside.
 */

/** What every refusal of a command's times says to do. */
export const TIME_FIX =
  "Set meta.creationTime to the node's time: the time now (Math.floor(Date.now() / 1000)), or, once `braid dev time` has moved the node's clock, the time it printed";

/** Seconds with the date they are, as the refusals show them. */
export const dated = (seconds: number): string =>
  `${seconds} (${new Date(seconds * 1000).toISOString().replace(".000Z", "Z")})`;

/** `reason` followed by the hint for a command created at `creationTime` living `ttl` s. */
export const hinted = (reason: string, creationTime: number, ttl: number, nodeTime: string) =>
  `${reason}: the command's creationTime is ${dated(creationTime)} and its ttl ${ttl} s, the node's time is ${nodeTime}. ${TIME_FIX}`;

/** `text` with the node's time it names (seconds and date) replaced by `NOW`. */
export const withoutNodeTime = (text: string): string =>
  text.replace(/the node's time is \d+ \([^)]*\)\. /, "the node's time is NOW. ");
