/**
 * Pact values as other layers see them: the representation, decimals and times, and the JSON
 * codec (Pact's key order and number forms).
 */
export { Decimal } from "./decimal.ts";
export { pactValueEquals } from "./equality.ts";
export {
  decodePactValue,
  encodeLegacyObject,
  encodeModuleName,
  encodePactValue,
  parsePactValue,
} from "./json.ts";
export {
  encodeJsonText,
  JsonDepthError,
  JsonNumber,
  type JsonObject,
  type JsonValue,
  jsonString,
  parseJson,
} from "./json-text.ts";
export { makeKeySet } from "./keyset.ts";
export { parseModuleName, parseQualifiedName } from "./names.ts";
export { jsonNumberToDecimal } from "./scientific.ts";
export { compareCodePoints } from "./text.ts";
export { PactTime } from "./time.ts";
export type * from "./types.ts";
export { UNIT } from "./types.ts";
