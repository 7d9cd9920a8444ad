/**
 * The execution environment of one command: its data, signers (with the capabilities each
 * signature is scoped to), verifiers, chain data from its public metadata and the block, its hash,
 * the execution flags, the gas meter and the database.
 */
import type { CommandPayload, ParsedCommand, SigCapability } from "../command/index.ts";
import {
  type ChainData,
  DbModuleStore,
  type ExecutionEnv,
  type GasMeter,
  type NativeDef,
} from "../pact/index.ts";
import {
  type CapToken,
  Decimal,
  decodePactValue,
  jsonNumberToDecimal,
} from "../pact/values/index.ts";
import type { BlockContext, ExecutionOptions } from "./types.ts";

export function buildExecutionEnv(
  command: ParsedCommand,
  options: ExecutionOptions,
  natives: ReadonlyMap<string, NativeDef>,
  gas: GasMeter,
): ExecutionEnv {
  const { payload } = command;
  return {
    data: decodePactValue(payload.payload.data),
    signers: signerCaps(payload),
    verifiers: verifierCaps(payload),
    chainData: chainData(payload, options.block),
    txHash: command.hash,
    flags: new Set(options.flags),
    mode: options.mode,
    gas,
    db: options.db,
    modules: new DbModuleStore(options.db, natives),
    namespacePolicy: options.namespacePolicy ?? { kind: "simple" },
    ...(options.spvVerifier ? { spv: options.spvVerifier } : {}),
  };
}

/** Public key → the capabilities its signature is scoped to (none: unscoped). */
function signerCaps(payload: CommandPayload): Map<string, readonly CapToken[]> {
  const signers = new Map<string, readonly CapToken[]>();
  for (const signer of payload.signers) {
    signers.set(signer.pubKey, signer.clist.map(capToken));
  }
  return signers;
}

/**
 * Verifier name → the capabilities it grants. The caller checks verifier proofs before running
 * the command (the development server, like Pact's, trusts them).
 */
function verifierCaps(payload: CommandPayload): Map<string, readonly CapToken[]> {
  const verifiers = new Map<string, readonly CapToken[]>();
  for (const v of payload.verifiers ?? []) verifiers.set(v.name, v.clist.map(capToken));
  return verifiers;
}

/** A capability named in a signer's `clist`; it matches by name and arguments, not module hash. */
function capToken(cap: SigCapability): CapToken {
  return { kind: "cap-token", name: cap.name, moduleHash: "", args: cap.args.map(decodePactValue) };
}

function chainData(payload: CommandPayload, block: BlockContext): ChainData {
  const meta = payload.meta;
  const publicMeta = meta.kind === "public" ? meta : null;
  return {
    chainId: publicMeta?.chainId ?? "",
    sender: publicMeta?.sender ?? "",
    gasLimit: BigInt(publicMeta?.gasLimit ?? 0),
    gasPrice: publicMeta === null ? Decimal.ZERO : jsonNumberToDecimal(publicMeta.gasPrice),
    blockHeight: block.height,
    blockTime: block.time,
    prevBlockHash: block.prevBlockHash,
  };
}
