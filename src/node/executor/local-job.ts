/** One `local` request run at a site, its outcome as an answer (shared by every executor). */
import { parseCommand } from "../../command/index.ts";
import { LocalRefusal, type LocalSite, runLocal } from "../local.ts";
import { failedAnswer, type LocalAnswer, type LocalRequest } from "./contract-executor.ts";

export function answerLocal(request: LocalRequest, site: LocalSite): LocalAnswer {
  try {
    // Its hash and signatures were checked when the call came; the hash is checked again here,
    // cheaply, so that no executor runs a command other than the one named.
    const parsed = parseCommand(JSON.parse(request.transaction), { verifySignatures: false });
    if (!parsed.ok) return failedAnswer(new Error(parsed.problems[0]?.message));
    const { preflight, rules, nowSeconds, timeLimitMs } = request;
    const text = runLocal(parsed.command, preflight, site, rules, nowSeconds, timeLimitMs);
    return { kind: "answer", text };
  } catch (e) {
    if (e instanceof LocalRefusal) return { kind: "refused", message: e.message };
    return failedAnswer(e);
  }
}
