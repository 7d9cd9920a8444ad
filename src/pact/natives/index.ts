/**
 * The core natives implemented in this folder, in the order Pact's `-b` lists them (the
 * reference's `CoreBuiltin` enum order), and the same natives by name.
 *
 * Overloads share one NativeDef: `round`/`ceiling`/`floor` (with precision), `str-to-int` (with
 * base), `enumerate` (with step) and `sort` (with fields) dispatch on their argument count.
 */
import type { NativeDef } from "../runtime/types.ts";
import { FORMAT, HASH, SHOW } from "./display.ts";
import {
  AND_Q,
  AT,
  BIND,
  COMPOSE,
  DISTINCT,
  ENUMERATE,
  FILTER,
  FOLD,
  IDENTITY,
  MAKE_LIST,
  MAP,
  NOT_Q,
  OR_Q,
  REMOVE,
  SORT,
  WHERE,
  ZIP,
} from "./lists.ts";
import { OPERATOR_NATIVES } from "./operators.ts";
import { HASH_POSEIDON, POSEIDON_HASH_HACK_A_CHAIN } from "./poseidon.ts";
import { CONTAINS, DROP, LENGTH, REVERSE, TAKE } from "./sequences.ts";
import { VERIFY_SPV } from "./spv.ts";
import {
  BASE64_DECODE,
  BASE64_ENCODE,
  CONCAT,
  HASH_KECCAK256,
  INT_TO_STR,
  IS_CHARSET,
  STR_TO_INT,
  STR_TO_LIST,
  TYPE_OF,
} from "./strings.ts";
import {
  ADD_TIME,
  DAYS,
  DIFF_TIME,
  FORMAT_TIME,
  HOURS,
  MINUTES,
  PARSE_TIME,
  TIME,
} from "./time.ts";
import { PAIRING_CHECK, POINT_ADD, SCALAR_MULT } from "./zk.ts";

function op(name: string): NativeDef {
  const n = OPERATOR_NATIVES.find((d) => d.name === name);
  if (n === undefined) throw new Error(`missing operator native ${name}`);
  return n;
}

export const CORE_NATIVES: readonly NativeDef[] = [
  op("+"),
  op("-"),
  op("*"),
  op("/"),
  op("negate"),
  op("abs"),
  op("^"),
  op("not"),
  op("="),
  op("!="),
  op(">"),
  op(">="),
  op("<"),
  op("<="),
  op("&"),
  op("|"),
  op("xor"),
  op("~"),
  op("shift"),
  op("round"),
  op("ceiling"),
  op("floor"),
  op("exp"),
  op("ln"),
  op("sqrt"),
  op("log"),
  LENGTH,
  TAKE,
  DROP,
  CONCAT,
  REVERSE,
  CONTAINS,
  SORT,
  REMOVE,
  op("mod"),
  MAP,
  FILTER,
  ZIP,
  INT_TO_STR,
  STR_TO_INT,
  FOLD,
  DISTINCT,
  FORMAT,
  ENUMERATE,
  SHOW,
  AT,
  MAKE_LIST,
  BASE64_ENCODE,
  BASE64_DECODE,
  STR_TO_LIST,
  BIND,
  AND_Q,
  OR_Q,
  WHERE,
  NOT_Q,
  HASH,
  PARSE_TIME,
  FORMAT_TIME,
  TIME,
  ADD_TIME,
  DIFF_TIME,
  HOURS,
  MINUTES,
  DAYS,
  COMPOSE,
  IS_CHARSET,
  PAIRING_CHECK,
  SCALAR_MULT,
  POINT_ADD,
  POSEIDON_HASH_HACK_A_CHAIN,
  TYPE_OF,
  op("dec"),
  IDENTITY,
  VERIFY_SPV,
  HASH_KECCAK256,
  HASH_POSEIDON,
];

export const CORE_NATIVES_BY_NAME: ReadonlyMap<string, NativeDef> = new Map(
  CORE_NATIVES.map((n) => [n.name, n]),
);
