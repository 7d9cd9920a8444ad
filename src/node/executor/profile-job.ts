/**
 * The gas profile of a transaction of a stored block (shared by every executor, as a `local`
 * request carrying `profile`): on a scratch state after the block's parent, with the block's
 * miner, the coinbase and the transactions before it run again, then the transaction itself
 * with a gas profiler (src/pact/gas/profile.ts). The answer holds its output as this run gave
 * it, to compare with the stored one, and the profile, whose total is that output's `gas`.
 *
 * The transactions before it may run `PROFILE_TIME_SHARE` of the time limit, the transaction
 * the rest: the whole stays within the limit of one `local` call.
 */
import { encodeCommandResult } from "../../execution/index.ts";
import { GasProfiler } from "../../pact/index.ts";
import {
  blockContextOf,
  CommandTimedOut,
  executeBlock,
  runCommand,
} from "./block/block-executor.ts";
import { checkedCommand } from "./block-job.ts";
import type { LocalAnswer, LocalRequest, ProfileOf } from "./contract-executor.ts";
import type { LocalSite } from "./local.ts";

/** The share of the time limit the block's transactions before the profiled one may run. */
export const PROFILE_TIME_SHARE = 0.5;

export function answerProfile(request: LocalRequest, of: ProfileOf, site: LocalSite): LocalAnswer {
  const target = checkedCommand(request.body);
  const before = of.before.map(checkedCommand);
  const env = { ...site.env, miner: of.miner };
  const state = site.scratch();
  const beforeMs = request.timeLimitMs * PROFILE_TIME_SHARE;
  try {
    const earlier = executeBlock(state, env, before, { commandMs: beforeMs, blockMs: beforeMs });
    if (earlier.commands.length !== before.length) {
      return refused(
        `the ${before.length} transactions before it in its block did not run again within ${beforeMs} ms`,
      );
    }
    const gasLeft = earlier.commands.reduce((left, c) => left - c.outcome.gas, env.blockGasLimit);
    const profiler = new GasProfiler("transaction", target.hash);
    const run = runCommand(
      state,
      env,
      blockContextOf(env),
      target,
      gasLeft,
      request.timeLimitMs - beforeMs,
      profiler,
    );
    if (run.kind === "rejected") return refused(`its gas could not be bought again: ${run.reason}`);
    const output = encodeCommandResult(run.outcome);
    return {
      kind: "answer",
      text: `{"output":${output},"profile":${JSON.stringify(profiler.profile())}}`,
    };
  } catch (e) {
    if (e instanceof CommandTimedOut) return refused(e.message);
    throw e;
  }
}

function refused(why: string): LocalAnswer {
  return { kind: "refused", message: `the transaction cannot be profiled: ${why}` };
}
