/**
 * Runs Kadena's code generator, `pactjs contract-generate` (the `@kadena/pactjs-cli` dev
 * dependency, from `node_modules/.bin`) in a scratch directory, and reads back the typings it
 * wrote to `node_modules/.kadena/pactjs-generated/` there; compares the functions they declare
 * with those a Pact source defines.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { parseProgram } from "../../../src/pact/index.ts";

const PACTJS = fileURLToPath(new URL("../../../node_modules/.bin/pactjs", import.meta.url));
/** A run takes about half a second; a stuck one is killed after this. */
const TIMEOUT_MS = 30_000;

export interface Generated {
  /** The files of `pactjs-generated/`, sorted. */
  readonly files: readonly string[];
  /** The text of one of them. */
  read(file: string): string;
}

/**
 * `pactjs contract-generate ARGS…` run in `dir`, after writing a `package.json` there (the
 * generator writes next to the nearest one). `--file` paths are relative to `dir`. Rejects, with
 * the generator's stderr in the message, when it exits other than with 0 or runs longer than
 * `TIMEOUT_MS`.
 */
export async function contractGenerate(dir: string, args: readonly string[]): Promise<Generated> {
  writeFileSync(join(dir, "package.json"), '{ "name": "pactjs-typings", "private": true }\n');
  await promisify(execFile)(process.execPath, [PACTJS, "contract-generate", ...args], {
    cwd: dir,
    timeout: TIMEOUT_MS,
  });
  const out = join(dir, "node_modules", ".kadena", "pactjs-generated");
  return {
    files: readdirSync(out).sort(),
    read: (file) => readFileSync(join(out, file), "utf8"),
  };
}

/** Names of a module's functions: its `defun`s and its `defpact`s, in source order. */
export interface FunctionNames {
  readonly defuns: readonly string[];
  readonly defpacts: readonly string[];
}

/**
 * The functions a generated `.d.ts` declares for `moduleName`: the members of
 * `IPactModules[moduleName]` in `declare module "@kadena/client"`, where the generator puts
 * `defpact`s in a nested `defpact` member. Throws when the file declares no such module.
 */
export function declaredFunctions(dts: string, moduleName: string): FunctionNames {
  const file = ts.createSourceFile("generated.d.ts", dts, ts.ScriptTarget.ES2022);
  const client = file.statements.find(
    (s): s is ts.ModuleDeclaration => ts.isModuleDeclaration(s) && s.name.text === "@kadena/client",
  );
  const modules = (client?.body as ts.ModuleBlock | undefined)?.statements.find(
    (s): s is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(s) && s.name.text === "IPactModules",
  );
  const members = typeLiteralOf(modules?.members, moduleName);
  if (members === undefined) throw new Error(`no IPactModules["${moduleName}"] in:\n${dts}`);
  return {
    defuns: members.map(memberName).filter((name) => name !== "defpact"),
    defpacts: (typeLiteralOf(members, "defpact") ?? []).map(memberName),
  };
}

/** The members of property `name`'s type among `members`, when that type is a literal `{ … }`. */
function typeLiteralOf(
  members: readonly ts.TypeElement[] | undefined,
  name: string,
): readonly ts.TypeElement[] | undefined {
  const type = members?.find(
    (m): m is ts.PropertySignature => ts.isPropertySignature(m) && memberName(m) === name,
  )?.type;
  return type !== undefined && ts.isTypeLiteralNode(type) ? type.members : undefined;
}

function memberName(member: ts.TypeElement): string {
  const name = member.name;
  if (name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name))) return name.text;
  throw new Error(`a member without a plain name: ${ts.SyntaxKind[member.kind]}`);
}

/** The functions a Pact source defines for its one module or interface (read by our parser). */
export function definedFunctions(source: string): FunctionNames {
  const [form, ...rest] = parseProgram(source);
  if (
    form === undefined ||
    rest.length > 0 ||
    (form.kind !== "module" && form.kind !== "interface")
  ) {
    throw new Error("expected one module or interface");
  }
  const named = (kind: string) => form.defs.filter((d) => d.kind === kind).map((d) => d.name);
  return { defuns: named("defun"), defpacts: named("defpact") };
}
