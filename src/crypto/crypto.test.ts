import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ed25519 } from "@noble/curves/ed25519.js";
import { blake2b } from "@noble/hashes/blake2.js";
import { sha512_256 } from "@noble/hashes/sha2.js";
import {
  Base64UrlError,
  blake2b256,
  blake2s256,
  decodeBase64,
  decodeBase64Url,
  decodeHex,
  encodeBase64Url,
  encodeHex,
  generateKeyPair,
  keyPairFromSeed,
  sha512t256,
  sha512t256Parts,
  sign,
  verify,
} from "./index.ts";

const hex = (b: Uint8Array) => encodeHex(b);
const utf8 = (s: string) => new TextEncoder().encode(s);

describe("base64url", () => {
  it("encodes without padding", () => {
    assert.equal(encodeBase64Url(utf8("a")), "YQ");
    assert.equal(encodeBase64Url(new Uint8Array([0xfb, 0xff])), "-_8");
  });
  it("decodes with or without padding", () => {
    assert.deepEqual(decodeBase64Url("YQ"), utf8("a"));
    assert.deepEqual(decodeBase64Url("YQ=="), utf8("a"));
    assert.deepEqual(decodeBase64Url("-_8"), new Uint8Array([0xfb, 0xff]));
    assert.deepEqual(decodeBase64Url(""), new Uint8Array());
  });
  it("rejects the standard alphabet and stray characters with a clear message", () => {
    assert.throws(() => decodeBase64Url("+/8"), /character "\+" is not in the alphabet/);
    assert.throws(() => decodeBase64Url("ab c"), /character " " is not in the alphabet/);
    assert.throws(() => decodeBase64Url("Y"), /length 1 cannot encode whole bytes/);
    assert.throws(() => decodeBase64Url("YQ="), /malformed '=' padding/);
    assert.throws(() => decodeBase64Url("YR"), /trailing bits are not zero/);
    assert.throws(() => decodeBase64Url("+"), Base64UrlError);
  });
});

describe("padded standard base64", () => {
  it("decodes the standard alphabet with its padding", () => {
    assert.deepEqual(decodeBase64("YQ=="), utf8("a"));
    assert.deepEqual(decodeBase64("YWI="), utf8("ab"));
    assert.deepEqual(decodeBase64("+/8="), new Uint8Array([0xfb, 0xff]));
    assert.deepEqual(decodeBase64(""), new Uint8Array());
  });
  it("rejects missing padding, the URL alphabet and non-zero trailing bits", () => {
    const notBase64 = /invalid base64: it must be the alphabet A-Z a-z 0-9 \+ \/ padded with =/;
    assert.throws(() => decodeBase64("YQ"), notBase64);
    assert.throws(() => decodeBase64("-_8="), notBase64);
    assert.throws(() => decodeBase64("YQ=\n="), notBase64);
    assert.throws(() => decodeBase64("YR=="), /invalid base64: trailing bits are not zero/);
  });
});

describe("hex", () => {
  it("round trips lowercase and accepts uppercase", () => {
    assert.equal(encodeHex(new Uint8Array([0, 171, 255])), "00abff");
    assert.deepEqual(decodeHex("00ABff"), new Uint8Array([0, 171, 255]));
  });
  it("names the bad value and the expected length", () => {
    assert.throws(
      () => decodeHex("xyz", undefined, "public key"),
      /public key is not hexadecimal: "xyz"/,
    );
    assert.throws(
      () => decodeHex("abcd", 32, "public key"),
      /public key must be 64 hex characters, got 4/,
    );
  });
});

describe("hashes", () => {
  it("computes the standard digests of 'abc'", () => {
    assert.equal(
      hex(blake2b256("abc")),
      "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319",
    );
    assert.equal(
      hex(blake2s256("abc")),
      "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982",
    );
    assert.equal(
      hex(sha512t256("abc")),
      "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
    );
  });
  it("computes the digests of the empty input", () => {
    assert.equal(
      hex(blake2b256(new Uint8Array())),
      "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8",
    );
    assert.equal(
      hex(blake2s256("")),
      "69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9",
    );
  });
  it("agrees with @noble/hashes on Blake2b-256 for many lengths", () => {
    for (let n = 0; n < 300; n += 7) {
      const data = new Uint8Array(n).map((_, i) => (i * 31 + n) & 0xff);
      assert.equal(hex(blake2b256(data)), hex(blake2b(data, { dkLen: 32 })));
    }
  });
  it("agrees with @noble/hashes on SHA-512/256 for many lengths, whole and in parts", () => {
    for (let n = 0; n < 1_200; n += 13) {
      const data = new Uint8Array(n).map((_, i) => (i * 57 + n) & 0xff);
      const expected = hex(sha512_256(data));
      assert.equal(hex(sha512t256(data)), expected);
      const cut = n >> 1;
      assert.equal(hex(sha512t256Parts([data.subarray(0, cut), data.subarray(cut)])), expected);
    }
  });
  it("hashes parts as their concatenation", () => {
    assert.deepEqual(sha512t256Parts([utf8("a"), utf8("bc")]), sha512t256("abc"));
  });
  it("reproduces the request key of a command built by @kadena/client", () => {
    const cmd =
      '{"payload":{"exec":{"code":"(coin.transfer \\"sender00\\" \\"sender01\\" 1.0)","data":{"ks":{"keys":["368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca"],"pred":"keys-all"}}}},"nonce":"demo-nonce-1","signers":[{"pubKey":"368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca","scheme":"ED25519","clist":[{"name":"coin.GAS","args":[]},{"name":"coin.TRANSFER","args":["sender00","sender01",{"decimal":"1.0"}]}]}],"meta":{"gasLimit":1000,"gasPrice":1e-8,"sender":"sender00","ttl":600,"creationTime":1795303514,"chainId":"0"},"networkId":"development"}';
    assert.equal(encodeBase64Url(blake2b256(cmd)), "KgyOBFjtSXKKmOv4hnWJKTOtQuG4yah9ML-kPAiVfro");
  });
});

describe("ed25519", () => {
  // RFC 8032, section 7.1, test 1.
  const seed = decodeHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
  const publicKey = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
  const signature =
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";

  it("derives the RFC 8032 public key and signature", () => {
    assert.equal(hex(keyPairFromSeed(seed).publicKey), publicKey);
    assert.equal(hex(sign(new Uint8Array(), seed)), signature);
    assert.equal(verify(new Uint8Array(), decodeHex(signature), decodeHex(publicKey)), true);
  });
  it("rejects a changed message, signature or key without throwing", () => {
    const sig = decodeHex(signature);
    assert.equal(verify(utf8("x"), sig, decodeHex(publicKey)), false);
    const badSig = sig.slice();
    badSig[0] = (badSig[0] ?? 0) ^ 1;
    assert.equal(verify(new Uint8Array(), badSig, decodeHex(publicKey)), false);
    assert.equal(verify(new Uint8Array(), sig.slice(1), decodeHex(publicKey)), false);
    assert.equal(verify(new Uint8Array(), sig, new Uint8Array(31)), false);
  });
  it("verifies the signature @kadena/client made for the devnet sender00 key", () => {
    const pair = keyPairFromSeed(
      decodeHex("251a920c403ae8c8f65f59142316af3c82b631fba46ddea92ee8c95035bd2898"),
    );
    assert.equal(
      hex(pair.publicKey),
      "368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca",
    );
    const hash = decodeBase64Url("KgyOBFjtSXKKmOv4hnWJKTOtQuG4yah9ML-kPAiVfro");
    const sig = decodeHex(
      "f84825165c45de4abd529770988fa34f24949a6efb9fdc505bf131921ed0ad6a1dadc7bfe59990cb99eaeb0d80a52f8bbcf659a5af6313211d8edab18f8a980c",
    );
    assert.equal(verify(hash, sig, pair.publicKey), true);
    assert.equal(hex(sign(hash, pair.secretKey)), hex(sig));
  });
  it("generates fresh key pairs whose signatures noble accepts", () => {
    const pair = generateKeyPair();
    const other = generateKeyPair();
    assert.notEqual(hex(pair.secretKey), hex(other.secretKey));
    const msg = utf8("braid");
    assert.equal(ed25519.verify(sign(msg, pair.secretKey), msg, pair.publicKey), true);
  });
});
