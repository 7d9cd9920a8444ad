/**
 * Cross-chain SPV on the node (issue #12): the output proof of a command for another chain
 * (chainweb-node's `spvHandler` and `createTransactionOutputProof`), the verifier that lets a
 * `cont` command resume a defpact from such a proof (Chainweb's `verifyCont`, Pact's
 * `_spvVerifyContinuation`), and the one `verify-spv` uses to read another chain's command
 * result (Chainweb's `verifySPV`). The proof itself is the chain core's (src/chain/proof/spv.ts).
 *
 * The verifier checks, in Chainweb's order and words: the proof is base64url of a proof's JSON,
 * its target chain is this chain, the Merkle path leads to a block of this chain that is the
 * parent of the block being executed or one of its ancestors (the current branch), the subject
 * is a command result, and that result carries a defpact state. The defpact engine then checks
 * the pact id, the step and (in `resume`) the yield's provenance: target chain and module hash.
 */
import type { ChainDatabase } from "../chain/db/index.ts";
import type { BlockHeader, ParentBlock } from "../chain/header/types.ts";
import {
  createSpvProof,
  decodeSpvProof,
  encodeSpvProof,
  SpvError,
  type SpvProof,
  spvTargetHeight,
  TARGET_NOT_REACHABLE,
  verifySpvProof,
} from "../chain/proof/spv.ts";
import type { ChainwebVersion } from "../chain/version/version.ts";
import { decodeBase64Url, encodeBase64Url } from "../crypto/index.ts";
import {
  type ContinuationVerifier,
  type DefPactExec,
  decodeDefPactExecValue,
  type SpvVerifier,
} from "../pact/index.ts";
import {
  decodePactValue,
  encodePactValue,
  type JsonValue,
  type PactObject,
  parseJson,
} from "../pact/values/index.ts";

/** A proof the node cannot make (a 400 with this message). */
export class SpvRefusal extends Error {
  override readonly name = "SpvRefusal";
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Where a command's output is: its block (on the source chain's branch) and its index. */
export interface OutputLocation {
  readonly header: BlockHeader;
  readonly position: number;
}

export interface ProofRequest {
  readonly version: ChainwebVersion;
  readonly chainDb: ChainDatabase;
  readonly sourceChain: number;
  readonly targetChain: number;
  /** The request key as given (for messages). */
  readonly requestKey: string;
  /** The command's block on the source chain's current branch, or null. */
  readonly location: OutputLocation | null;
  /** The target chain's current head. */
  readonly targetHead: BlockHeader;
}

/** The height the target chain must reach before the proof of `location` can be made. */
export function proofTargetHeight(
  version: ChainwebVersion,
  sourceChain: number,
  targetChain: number,
  location: OutputLocation,
): number {
  try {
    return spvTargetHeight(version, sourceChain, targetChain, location.header.height);
  } catch (e) {
    throw new SpvRefusal(`SPV target not reachable: ${(e as Error).message}`);
  }
}

/**
 * The wire form of the output proof (base64url of its JSON). It ends at the lowest header of the
 * target chain's branch that can witness the source block, so asking again gives the same proof.
 */
export function createOutputProof(request: ProofRequest): string {
  const { version, chainDb, sourceChain, targetChain, location, targetHead } = request;
  if (location === null) {
    // Chainweb shows the key with Haskell's `show`: in double quotes.
    throw new SpvRefusal(`Transaction hash not found: "${request.requestKey}"`);
  }
  const height = proofTargetHeight(version, sourceChain, targetChain, location);
  const targetHeader =
    targetHead.height < height ? undefined : chainDb.ancestorAt(targetHead.hash, height);
  if (targetHeader === undefined) {
    // Chainweb's exact text (its RemotePactTest compares it whole).
    throw new SpvRefusal(`SPV target not reachable: ${TARGET_NOT_REACHABLE}`);
  }
  const block = chainDb.block(location.header.hash);
  if (block === undefined) {
    throw new Error(`block ${encodeBase64Url(location.header.hash)} has no stored payload`);
  }
  try {
    const proof = createSpvProof({
      version,
      payload: block.payload,
      outputIndex: location.position,
      sourceHeader: location.header,
      targetHeader,
      lookupHeader: (chainId, hash) => {
        const header = chainDb.header(hash);
        return header?.chainId === chainId ? header : undefined;
      },
    });
    return encodeSpvProof(proof);
  } catch (e) {
    if (e instanceof SpvError) throw new SpvRefusal(`SPV verification failed: ${e.message}`);
    throw e;
  }
}

/**
 * The verifier of cross-chain continuations for commands of a block on chain `chainId` whose
 * parent is `parent` (or `local` on top of it): a proof's root must be `parent` or one of its
 * ancestors.
 */
/**
 * Where proofs' roots are looked for: the chain database, or (a batch of blocks from elsewhere
 * being checked before any is stored) the database with the batch's blocks checked so far.
 */
export type ProofAncestry = Pick<ChainDatabase, "link" | "isAncestor">;

export function continuationVerifier(
  chainDb: ProofAncestry,
  chainId: number,
  parent: ParentBlock,
): ContinuationVerifier {
  return {
    verifyContinuation(text: string): DefPactExec {
      return verifyContinuationProof(text, chainId, onBranch(chainDb, chainId, parent));
    },
  };
}

/** Whether `root` is a block of `chainId` on the branch ending at `parent`. */
function onBranch(chainDb: ProofAncestry, chainId: number, parent: ParentBlock) {
  return (root: Uint8Array): boolean => {
    const link = chainDb.link(root);
    return link !== undefined && link.chainId === chainId && chainDb.isAncestor(root, parent.hash);
  };
}

/**
 * The `verify-spv` verifier for commands of a block on chain `chainId` whose parent is `parent`
 * (or `local` on top of it).
 */
export function spvVerifier(
  chainDb: ProofAncestry,
  chainId: number,
  parent: ParentBlock,
): SpvVerifier {
  return {
    verifySpv(proofType: string, proof: PactObject): PactObject {
      return verifySpvObject(proofType, proof, chainId, onBranch(chainDb, chainId, parent));
    },
  };
}

/**
 * Chainweb's `verifySPV`: for a `TXOUT` proof (the proof's JSON as a Pact object) of a command
 * whose result is on `chainId`'s branch, that command's successful result, which must be an
 * object. Failures are errors with Chainweb's messages.
 */
export function verifySpvObject(
  proofType: string,
  proofObject: PactObject,
  chainId: number,
  isOnBranch: (root: Uint8Array) => boolean,
): PactObject {
  if (proofType === "ETH")
    throw new Error("verifySPV: ETH proof type is not yet supported in Pact5.");
  if (proofType !== "TXOUT") throw new Error(`Unsupported SPV type: ${proofType}`);
  let proof: SpvProof;
  try {
    proof = decodeSpvProof(encodePactValue(proofObject));
  } catch {
    throw new Error("pactObjectOutputProof: Failed to decode proof object");
  }
  if (proof.chainId !== chainId) {
    throw new Error("verifySPV: cannot redeem spv proof on wrong target chain");
  }
  const result = verifiedCommandResult(proof, chainId, isOnBranch, "verifySPV");
  const outcome = result.get("result");
  if (!(outcome instanceof Map) || outcome.get("status") !== "success") {
    throw new Error("verifySPV: Failed command result in tx output proof");
  }
  let data: ReturnType<typeof decodePactValue>;
  try {
    data = decodePactValue(outcome.get("data") as JsonValue);
  } catch {
    throw new Error("verifySPV: Unable to decode SPV transaction output");
  }
  if (!(data instanceof Map)) throw new Error("verifySPV: command result not an object");
  return data;
}

/**
 * The command result a proof's Merkle path leads to, from a block of `chainId` on the branch
 * (`who` names the Chainweb function in its messages).
 */
function verifiedCommandResult(
  proof: SpvProof,
  chainId: number,
  isOnBranch: (root: Uint8Array) => boolean,
  who: string,
): ReadonlyMap<string, JsonValue> {
  const verified = verifySpvProof(proof, (c, root) => c === chainId && isOnBranch(root));
  if (!verified.ok) throw new Error(`spv verification failed: ${verified.reason}`);
  try {
    const result = parseJson(strictUtf8.decode(verified.output));
    if (!(result instanceof Map) || !result.has("reqKey") || !result.has("result")) {
      throw new Error("not a command result");
    }
    return result;
  } catch {
    throw new Error(`${who}: Unable to decode SPV transaction output`);
  }
}

/** Chainweb's `verifyCont`: the defpact state a continuation proof establishes on `chainId`. */
export function verifyContinuationProof(
  text: string,
  chainId: number,
  isOnBranch: (root: Uint8Array) => boolean,
): DefPactExec {
  let json: string;
  try {
    json = strictUtf8.decode(decodeBase64Url(text));
  } catch {
    throw new Error("verifyCont: Invalid base64-encoded transaction output proof");
  }
  let proof: SpvProof;
  try {
    proof = decodeSpvProof(json);
  } catch {
    throw new Error("verifyCont: Cannot decode transaction output proof");
  }
  if (proof.chainId !== chainId) {
    // Chainweb's words, its typo included.
    throw new Error("verifyCont: cannot redeem continuation proof on wrong targget chain");
  }
  const continuation = verifiedCommandResult(proof, chainId, isOnBranch, "verifyCont").get(
    "continuation",
  );
  if (continuation === undefined || continuation === null) {
    throw new Error("verifyCont: No pact exec found in command result");
  }
  try {
    return decodeDefPactExecValue(continuation);
  } catch {
    throw new Error("verifyCont: Unable to decode SPV transaction output");
  }
}
