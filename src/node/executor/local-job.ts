/**
 * One `local` request run at a site, its outcome as an answer (shared by every executor): the
 * body parsed and verified, the command run, its answer's size checked.
 */
import { parseCommandBody } from "../../command/index.ts";
import { failedAnswer, type LocalAnswer, type LocalRequest } from "./contract-executor.ts";
import { LocalRefusal, type LocalSite, runLocal } from "./local.ts";
import { answerProfile } from "./profile-job.ts";

/**
 * The largest answer `local` gives (its JSON text's UTF-8 bytes): a command may build a value of
 * many megabytes within its gas (a million big integers), and the answer crosses from the thread
 * that made it to the one that sends it.
 */
export const MAX_LOCAL_ANSWER_BYTES = 16 * 1024 * 1024;

export function answerLocal(request: LocalRequest, site: LocalSite): LocalAnswer {
  try {
    const answer = answerOf(request, site);
    if (answer.kind !== "answer") return answer;
    const { text } = answer;
    // Its UTF-8 size is at least its length and at most three times it.
    if (text.length * 3 > MAX_LOCAL_ANSWER_BYTES) {
      const bytes = Buffer.byteLength(text);
      if (bytes > MAX_LOCAL_ANSWER_BYTES) {
        return {
          kind: "refused",
          message: `the answer is ${bytes} bytes, more than this node's limit of ${MAX_LOCAL_ANSWER_BYTES} bytes for a local answer`,
        };
      }
    }
    return answer;
  } catch (e) {
    if (e instanceof LocalRefusal) return { kind: "refused", message: e.message };
    return failedAnswer(e);
  }
}

/** The call run: `local`, or the gas profile of a stored transaction. */
function answerOf(request: LocalRequest, site: LocalSite): LocalAnswer {
  if (request.profile !== undefined) return answerProfile(request, request.profile, site);
  const parsed = parseCommandBody(request.body, {
    verifySignatures: request.verifySignatures,
  });
  if (!parsed.ok) return { kind: "refused", message: parsed.message };
  const { preflight, rules, nowSeconds, timeLimitMs } = request;
  const text = runLocal(parsed.command, preflight, site, rules, nowSeconds, timeLimitMs);
  return { kind: "answer", text };
}
