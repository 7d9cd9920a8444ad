/**
 * The code of the development server's contract thread (a `worker_thread` started by
 * contract-runner.ts): it opens the contract state and does the work it is given, one piece at a
 * time, in the order it came.
 */
import { workerData } from "node:worker_threads";
import { serveWork } from "../../execution/work-thread-port.ts";
import {
  type ContractAnswer,
  ContractState,
  type ContractThreadData,
  type ContractWork,
} from "./contract-work.ts";

const state = new ContractState(workerData as ContractThreadData);

function run(work: ContractWork): ContractAnswer {
  try {
    return state.answer(work);
  } catch (e) {
    // Not the command's doing (a command's own failures are its result): a disk that failed.
    return { kind: "failed", message: e instanceof Error ? e.message : String(e) };
  }
}

serveWork(run, () => state.close());
