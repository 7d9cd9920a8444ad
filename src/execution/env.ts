/**
 * The execution environment of one command: its data, signers (with the capabilities each
 * signature is scoped to), verifiers, chain data from its public metadata and the block, its hash,
 * the execution flags, the gas meter and the database.
 */
import type { CommandPayload, ParsedCommand } from "../command/index.ts";
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
import { capToken } from "./cap-token.ts";
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
 * Verifier name → the capabilities it grants. The node checks verifier proofs before running
 * the command (`verifiers.ts`); the development server, like Pact's, trusts them.
 */
function verifierCaps(payload: CommandPayload): Map<string, readonly CapToken[]> {
  const verifiers = new Map<string, readonly CapToken[]>();
  for (const v of payload.verifiers ?? []) {
    // Two verifiers of one name grant the capabilities of both (Pact's `fromListWith union`).
    verifiers.set(v.name, [...(verifiers.get(v.name) ?? []), ...v.clist.map(capToken)]);
  }
  return verifiers;
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
