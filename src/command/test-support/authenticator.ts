/**
 * A software passkey for tests: it makes a credential (an ES256 key on P-256, or an EdDSA key)
 * with node:crypto and answers `navigator.credentials.get` as a browser does — authenticator data
 * (SHA-256 of the relying party id, flags, signature counter), client data JSON
 * `{"type":"webauthn.get","challenge":…,"origin":…,"crossOrigin":false}`, and the signature over
 * both (ASN.1 DER for ES256) — packed into a command's `sig` the way wallets send it.
 */
import { createHash, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { encodeHex, WEBAUTHN_PREFIX } from "../../crypto/index.ts";

export interface Assertion {
  readonly authenticatorData: Uint8Array;
  readonly clientDataJSON: Uint8Array;
  readonly signature: Uint8Array;
}

/** Flags byte: user present (bit 0) and user verified (bit 2). */
const FLAGS_UP_UV = 0x05;

export class SoftwareAuthenticator {
  private counter = 0;
  private readonly privateKey: KeyObject;
  /** The credential's COSE key, in hex. */
  readonly coseKeyHex: string;

  constructor(
    readonly algorithm: "ES256" | "EdDSA" = "ES256",
    readonly rpId = "wallet.example",
  ) {
    const pair =
      algorithm === "ES256"
        ? generateKeyPairSync("ec", { namedCurve: "P-256" })
        : generateKeyPairSync("ed25519");
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: "jwk" });
    const coordinate = (text: string | undefined) => Buffer.from(text ?? "", "base64url");
    // Canonical CBOR maps {1: kty, 3: alg, -1: crv, -2: x(, -3: y)}.
    const cbor =
      algorithm === "ES256"
        ? Buffer.concat([
            Buffer.from("a5010203262001215820", "hex"),
            coordinate(jwk.x),
            Buffer.from("225820", "hex"),
            coordinate(jwk.y),
          ])
        : Buffer.concat([Buffer.from("a4010103272006215820", "hex"), coordinate(jwk.x)]);
    this.coseKeyHex = encodeHex(cbor);
  }

  /** The key as keysets and signers write it. */
  get publicKey(): string {
    return `${WEBAUTHN_PREFIX}${this.coseKeyHex}`;
  }

  /** Signs `challenge` (a command's hash) as `navigator.credentials.get` would. */
  assert(challenge: Uint8Array, origin = `https://${this.rpId}`): Assertion {
    this.counter++;
    const authenticatorData = Buffer.alloc(37);
    createHash("sha256").update(this.rpId).digest().copy(authenticatorData, 0);
    authenticatorData[32] = FLAGS_UP_UV;
    authenticatorData.writeUInt32BE(this.counter, 33);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: "webauthn.get",
        challenge: Buffer.from(challenge).toString("base64url"),
        origin,
        crossOrigin: false,
      }),
    );
    const signed = Buffer.concat([
      authenticatorData,
      createHash("sha256").update(clientDataJSON).digest(),
    ]);
    const digest = this.algorithm === "ES256" ? "sha256" : null;
    return { authenticatorData, clientDataJSON, signature: sign(digest, signed, this.privateKey) };
  }
}

/** An assertion as the text of a command's `sig`, in the encodings wallets use. */
export function signatureText(assertion: Assertion): string {
  return JSON.stringify({
    authenticatorData: Buffer.from(assertion.authenticatorData).toString("base64"),
    clientDataJSON: Buffer.from(assertion.clientDataJSON).toString("base64url"),
    signature: Buffer.from(assertion.signature).toString("base64"),
  });
}
