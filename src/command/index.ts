/** The contract command layer: parsing and verification, building, YAML requests, signing data. */
export * from "./build.ts";
export * from "./cmd-encoder.ts";
export * from "./command-body.ts";
export * from "./command-json.ts";
export * from "./errors.ts";
export * from "./hash-algorithm.ts";
export * from "./key-file.ts";
export { parseCommandPayload } from "./payload.ts";
export * from "./request-key.ts";
export * from "./sig-data.ts";
export * from "./types.ts";
export * from "./verify.ts";
export * from "./yaml-request.ts";
