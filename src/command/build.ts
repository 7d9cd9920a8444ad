/** Building commands and signing data from a parsed YAML request. */
import { encodeBase64Url } from "../crypto/index.ts";
import { encodeCommandPayload } from "./cmd-encoder.ts";
import { signCommand } from "./command-json.ts";
import { type CommandHashAlgorithm, commandHash } from "./hash-algorithm.ts";
import { type SigData, unsignedSigData } from "./sig-data.ts";
import type { CommandJson } from "./types.ts";
import type { ApiRequest } from "./yaml-request.ts";

/** The signed command: its `cmd` in Pact's field order, hashed with `algorithm`, signed by every key. */
export function buildCommand(request: ApiRequest, algorithm: CommandHashAlgorithm): CommandJson {
  return signCommand(encodeCommandPayload(request.payload), request.keys, algorithm);
}

/** The signing data of the (unsigned) command: its hash, its signers' keys, and `cmd`. */
export function buildSigData(request: ApiRequest, algorithm: CommandHashAlgorithm): SigData {
  const cmd = encodeCommandPayload(request.payload);
  const hash = encodeBase64Url(commandHash(cmd, algorithm));
  return unsignedSigData(cmd, hash, request.payload.signers);
}
