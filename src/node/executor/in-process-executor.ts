/**
 * The executor on the node's own thread: `local` on the chains' states themselves. A node in
 * memory uses it (its states live on this thread), as do unit tests and calls an execution
 * thread could not serve.
 */
import { equalBytes } from "../../chain/bytes.ts";
import type { NodeChain } from "../node-chain.ts";
import { answerBlock } from "./block-job.ts";
import type {
  BlockAnswer,
  BlockRequest,
  ContractExecutor,
  LocalAnswer,
  LocalRequest,
} from "./contract-executor.ts";
import { answerLocal } from "./local-job.ts";

export class InProcessExecutor implements ContractExecutor {
  constructor(private readonly chains: readonly NodeChain[]) {}

  local(request: LocalRequest): Promise<LocalAnswer> {
    const chain = this.chains[request.chainId]!;
    const { parent } = request;
    const onBranch = chain.headerAt(parent.height);
    if (onBranch === undefined || !equalBytes(onBranch.hash, parent.hash)) {
      return Promise.resolve({ kind: "unserved" });
    }
    const atHead = parent.height === chain.head.height;
    const scratch = () => chain.state.db.scratchAt(parent.height);
    return Promise.resolve(
      answerLocal(request, {
        parent,
        env: chain.environment(parent),
        state: atHead ? () => chain.state.db : scratch,
        scratch,
      }),
    );
  }

  makeBlock(request: BlockRequest): Promise<BlockAnswer> {
    const chain = this.chains[request.chainId]!;
    const { parent } = request;
    if (!equalBytes(chain.head.hash, parent.hash)) return Promise.resolve({ kind: "unserved" });
    return Promise.resolve(
      answerBlock(request, {
        env: chain.environment(parent),
        scratch: () => chain.state.db.scratchAt(parent.height),
      }),
    );
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
