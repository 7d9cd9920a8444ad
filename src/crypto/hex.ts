/** Lowercase hexadecimal, the text form of keys and signatures. */

const HEX = /^[0-9a-fA-F]*$/;

export class HexError extends Error {
  override name = "HexError";
}

export function encodeHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** Decodes hex text; when `expectedBytes` is given the length must match exactly. */
export function decodeHex(text: string, expectedBytes?: number, what = "hex string"): Uint8Array {
  if (text.length % 2 !== 0 || !HEX.test(text)) {
    throw new HexError(`${what} is not hexadecimal: ${JSON.stringify(abbreviate(text))}`);
  }
  if (expectedBytes !== undefined && text.length !== expectedBytes * 2) {
    throw new HexError(
      `${what} must be ${expectedBytes * 2} hex characters, got ${text.length}: ${JSON.stringify(abbreviate(text))}`,
    );
  }
  return new Uint8Array(Buffer.from(text, "hex"));
}

function abbreviate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
