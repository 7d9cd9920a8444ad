/**
 * How many `kill -9` rounds a crash test runs, and when each round's kill comes. `npm test` (and
 * so CI) runs a few rounds; `CRASH_ROUNDS=full` runs the full set, `CRASH_ROUNDS=N` N rounds
 * (CONTRIBUTING.md). So that a few rounds test as much as many, each round's kill comes at a
 * random moment within its own share of the delay range: the kills still span it from the
 * earliest to the latest moment, whatever the number of rounds.
 */

/** The rounds to run: `quick` unless CRASH_ROUNDS says `full` (then `full`) or a number. */
export function crashRounds(quick: number, full: number): number {
  const asked = process.env["CRASH_ROUNDS"];
  if (asked === undefined) return quick;
  if (asked === "full") return full;
  const rounds = Number(asked);
  if (!Number.isSafeInteger(rounds) || rounds < 1) {
    throw new Error(`CRASH_ROUNDS must be "full" or a whole number of rounds, not ${asked}`);
  }
  return rounds;
}

/**
 * The delay before round `round`'s kill (of `rounds`), in milliseconds: a random point (`random`
 * in [0, 1)) of the round's share of `[low, high]`.
 */
export function killDelayMs(
  round: number,
  rounds: number,
  random: number,
  [low, high]: readonly [number, number],
): number {
  return low + ((round + random) / rounds) * (high - low);
}
