export * from "./base64url.ts";
export * from "./cose-key.ts";
export * from "./ed25519.ts";
export * from "./hash.ts";
export * from "./hex.ts";
export { PUBLIC_KEY_CACHE_SIZE } from "./key-cache.ts";
export * from "./webauthn.ts";
