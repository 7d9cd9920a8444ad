/**
 * Writing the JSON inside `cmd` exactly as Pact writes it, so a request built by Braid hashes to
 * the same bytes as one built by Pact (the hash covers this text):
 *
 *   {"networkId":…,"payload":…,"signers":[…],["verifiers":[…],]"meta":{…},"nonce":"…"}
 *   exec:   {"exec":{"data":<value>,"code":"…"}}
 *   cont:   {"cont":{"proof":…,"data":<value>,"pactId":"…","rollback":…,"step":n}}
 *   meta:   {"creationTime":n,"ttl":n,"gasLimit":n,"chainId":"…","gasPrice":<number>,"sender":"…"}
 *   signer: {["addr":…,]["scheme":…,]"pubKey":"…"[,"clist":[{"name":"…","args":[…]}]]}
 *
 * `data`, capability arguments and verifier proofs are Pact values: they are decoded and re-encoded
 * with the Pact value codec (object keys in Pact's order, numbers as decimals), as Pact does.
 */
import { decimalToJsonNumber } from "../pact/values/decimal.ts";
import { decodePactValue, encodePactValue } from "../pact/values/json.ts";
import { type JsonValue, jsonString as str } from "../pact/values/json-text.ts";
import { jsonNumberToDecimal } from "../pact/values/scientific.ts";
import type {
  CommandPayload,
  ContMessage,
  ExecMessage,
  PrivateMeta,
  PublicMeta,
  SigCapability,
  Signer,
  Verifier,
} from "./types.ts";

export function encodeCommandPayload(payload: CommandPayload): string {
  const fields = [
    `"networkId":${payload.networkId === null ? "null" : str(payload.networkId)}`,
    `"payload":${encodeMessage(payload.payload)}`,
    `"signers":[${payload.signers.map(encodeSigner).join(",")}]`,
  ];
  if (payload.verifiers !== null) {
    fields.push(`"verifiers":[${payload.verifiers.map(encodeVerifier).join(",")}]`);
  }
  fields.push(`"meta":${encodeMeta(payload.meta)}`, `"nonce":${str(payload.nonce)}`);
  return `{${fields.join(",")}}`;
}

function encodeMessage(message: ExecMessage | ContMessage): string {
  if (message.kind === "exec") {
    return `{"exec":{"data":${value(message.data)},"code":${str(message.code)}}}`;
  }
  const proof = message.proof === null ? "null" : str(message.proof);
  return `{"cont":{"proof":${proof},"data":${value(message.data)},"pactId":${str(message.pactId)},"rollback":${message.rollback},"step":${message.step}}}`;
}

function encodeMeta(meta: PublicMeta | PrivateMeta): string {
  if (meta.kind === "private") {
    const address =
      meta.address === null
        ? "null"
        : `{"to":[${meta.address.to.map(str).join(",")}],"from":${str(meta.address.from)}}`;
    const gasLimit = meta.gasLimit === undefined ? "" : `,"gasLimit":${meta.gasLimit}`;
    return `{"address":${address}${gasLimit}}`;
  }
  // Pact reads the price as an exact Scientific, keeps it as a Decimal and writes it back as a number.
  const gasPrice = jsonNumberToDecimal(meta.gasPrice);
  return `{"creationTime":${meta.creationTime},"ttl":${meta.ttl},"gasLimit":${meta.gasLimit},"chainId":${str(meta.chainId)},"gasPrice":${decimalToJsonNumber(gasPrice)},"sender":${str(meta.sender)}}`;
}

function encodeSigner(signer: Signer): string {
  const fields: string[] = [];
  if (signer.addr !== null) fields.push(`"addr":${str(signer.addr)}`);
  if (signer.scheme !== null) fields.push(`"scheme":${str(signer.scheme)}`);
  fields.push(`"pubKey":${str(signer.pubKey)}`);
  if (signer.clist.length > 0) fields.push(`"clist":${encodeCapabilities(signer.clist)}`);
  return `{${fields.join(",")}}`;
}

function encodeVerifier(verifier: Verifier): string {
  return `{"name":${str(verifier.name)},"proof":${value(verifier.proof)},"clist":${encodeCapabilities(verifier.clist)}}`;
}

function encodeCapabilities(caps: readonly SigCapability[]): string {
  const items = caps.map(
    (cap) => `{"name":${str(cap.name)},"args":[${cap.args.map(value).join(",")}]}`,
  );
  return `[${items.join(",")}]`;
}

/** A Pact value as Pact writes it: decoded, then encoded (key order, number forms, escapes). */
function value(json: JsonValue): string {
  return encodePactValue(decodePactValue(json));
}
