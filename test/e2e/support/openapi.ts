/**
 * Chainweb's published OpenAPI 3.0 documents as test data: read from `../shared/` beside the
 * repository (never copied into it), their operations listed, their schema objects turned into JSON Schema for ajv, and
 * a node's responses checked against them (status, content type, headers, body).
 *
 * OpenAPI 3.0 schema objects are not JSON Schema: `nullable` becomes a `"null"` type, `$ref`s into
 * `#/components/schemas` point at a per-document root schema, annotations JSON Schema does not
 * know (`example`, `discriminator`, `tags`, …) are dropped, `exclusiveMinimum: true` becomes the
 * draft-07 form, and the OpenAPI formats (`int64`, `binary`, …) are registered with ajv. Any other
 * keyword is refused, so a document using one fails loudly instead of being half-checked.
 */
import { readFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import formatsModule from "ajv-formats";
import { parse } from "yaml";
import { missingDataSkip, SHARED_DIR } from "../../../src/chain/test-support/skip-or-require.ts";

/** The documents' folder beside the repository (`../shared/reference/openapi/`). */
export const DOCUMENTS_DIR = join(SHARED_DIR, "reference", "openapi");

export type DocumentName = "chainweb" | "pact";
export const DOCUMENT_FILES: Record<DocumentName, string> = {
  chainweb: "chainweb.openapi.yaml",
  pact: "pact.openapi.yaml",
};

/** For `describe(…, { skip: documentsSkip() }, …)`: skipped without the documents, but on CI. */
export const documentsSkip = () =>
  missingDataSkip(Object.values(DOCUMENT_FILES).map((file) => join(DOCUMENTS_DIR, file)));

// ---------------------------------------------------------------------------------------------
// JSON pointers and document exceptions

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function pointerParts(pointer: string): string[] {
  if (pointer === "" || pointer === "#") return [];
  const body = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (!body.startsWith("/")) throw new Error(`not a JSON pointer: ${pointer}`);
  return body
    .slice(1)
    .split("/")
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The escaped pointer segment of a key (`/` → `~1`). */
export const pointerSegment = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

export function resolvePointer(doc: unknown, pointer: string): unknown {
  let at: unknown = doc;
  for (const part of pointerParts(pointer)) {
    if (Array.isArray(at)) at = at[Number(part)];
    else if (isObject(at)) at = at[part];
    else return undefined;
  }
  return at;
}

/**
 * A place where a document is wrong (checked against chainweb-node and Pact 5), and exactly what
 * the test uses there instead. `says` must still be what the document holds (every key of it,
 * compared as JSON), so a corrected document makes the exception fail rather than linger.
 */
export interface DocumentException {
  readonly document: DocumentName;
  /** JSON pointer into the document. */
  readonly pointer: string;
  /** What the document holds at the pointer (a subset of the object's keys). */
  readonly says: JsonObject;
  /**
   * `merge`: these keys replace the document's at the pointer. `renameKey`: the object at the
   * pointer gets key `from` renamed to `to`.
   */
  readonly use:
    | { readonly merge: JsonObject }
    | { readonly renameKey: { from: string; to: string } };
  /** What the operation and spot are, for the table's readers. */
  readonly where: string;
  readonly reason: string;
}

function applyException(doc: JsonObject, exception: DocumentException): void {
  const target = resolvePointer(doc, exception.pointer);
  if (!isObject(target)) {
    throw new Error(
      `document exception ${exception.pointer}: no object there in ${exception.document}`,
    );
  }
  for (const [key, value] of Object.entries(exception.says)) {
    if (JSON.stringify(target[key]) !== JSON.stringify(value)) {
      throw new Error(
        `document exception ${exception.pointer}: the document now says ${key}: ${JSON.stringify(target[key])}, not ${JSON.stringify(value)}; review the exception`,
      );
    }
  }
  if ("merge" in exception.use) {
    Object.assign(target, structuredClone(exception.use.merge));
  } else {
    const { from, to } = exception.use.renameKey;
    if (!(from in target) || to in target) {
      throw new Error(
        `document exception ${exception.pointer}: cannot rename ${from} to ${to}; review the exception`,
      );
    }
    const entries = Object.entries(target);
    for (const key of Object.keys(target)) delete target[key];
    for (const [key, value] of entries) target[key === from ? to : key] = value;
  }
}

// ---------------------------------------------------------------------------------------------
// Operations

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

export interface Operation {
  readonly document: DocumentName;
  readonly method: string;
  /** The path as the document writes it (after exceptions), e.g. `/chain/{chain}/block`. */
  readonly path: string;
  /** `chainweb GET /chain/{chain}/block`. */
  readonly key: string;
  /** Pointer of the operation object. */
  readonly pointer: string;
  readonly spec: JsonObject;
  /** The `servers` in force: the operation's, else the path's, else the document's. */
  readonly servers: readonly JsonObject[];
}

export const operationKey = (document: DocumentName, method: string, path: string) =>
  `${document} ${method.toUpperCase()} ${path}`;

// ---------------------------------------------------------------------------------------------
// OpenAPI 3.0 schema objects → JSON Schema (draft-07)

/** JSON Schema keywords whose value is copied as is. */
const PLAIN_KEYWORDS = new Set([
  "type",
  "enum",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "required",
  "title",
  "description",
  "default",
]);
/** OpenAPI annotations with no JSON Schema meaning here: dropped. */
const DROPPED_KEYWORDS = new Set([
  "example",
  "examples",
  "discriminator",
  "xml",
  "externalDocs",
  "deprecated",
  "readOnly",
  "writeOnly",
  "tags",
  "contentEncoding",
  "contentMediaType",
]);

export class SchemaConverter {
  constructor(
    /** `$id` of the root schema that holds the document's `components.schemas`. */
    readonly rootId: string,
  ) {}

  convert(schema: Json, at: string): JsonObject | boolean {
    if (typeof schema === "boolean") return schema;
    if (!isObject(schema)) throw new Error(`${at}: a schema must be an object`);
    if (typeof schema.$ref === "string") {
      // OpenAPI 3.0: the siblings of a $ref are ignored.
      const prefix = "#/components/schemas/";
      if (!schema.$ref.startsWith(prefix)) {
        throw new Error(`${at}: a schema $ref outside components.schemas: ${schema.$ref}`);
      }
      return { $ref: `${this.rootId}#/definitions/${schema.$ref.slice(prefix.length)}` };
    }
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) {
      const here = `${at}/${pointerSegment(key)}`;
      if (PLAIN_KEYWORDS.has(key)) out[key] = value;
      else if (DROPPED_KEYWORDS.has(key) || key.startsWith("x-") || key === "nullable") continue;
      else if (key === "properties") {
        if (!isObject(value)) throw new Error(`${here}: properties must be an object`);
        out.properties = Object.fromEntries(
          Object.entries(value).map(([name, s]) => [
            name,
            this.convert(s, `${here}/${pointerSegment(name)}`),
          ]),
        );
      } else if (key === "items" || key === "not") {
        out[key] = this.convert(value, here);
      } else if (key === "additionalProperties") {
        out[key] = typeof value === "boolean" ? value : this.convert(value, here);
      } else if (key === "allOf" || key === "anyOf" || key === "oneOf") {
        if (!Array.isArray(value)) throw new Error(`${here}: ${key} must be an array`);
        out[key] = value.map((s, i) => this.convert(s, `${here}/${i}`));
      } else if (key === "exclusiveMinimum" || key === "exclusiveMaximum") {
        // OpenAPI 3.0 (draft-04): a boolean next to minimum/maximum.
        const bound = key === "exclusiveMinimum" ? "minimum" : "maximum";
        if (value === true && typeof schema[bound] === "number") {
          out[key] = schema[bound];
        } else if (typeof value === "number") out[key] = value;
      } else {
        throw new Error(`${here}: the converter does not know the keyword ${key}`);
      }
    }
    if (schema.exclusiveMinimum === true) delete out.minimum;
    if (schema.exclusiveMaximum === true) delete out.maximum;
    if (schema.nullable === true) {
      // OpenAPI 3.0.3: `nullable` without `type` has no effect.
      if (typeof out.type === "string") out.type = [out.type, "null"];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// A loaded document with its validators

export interface LoadedDocument {
  readonly name: DocumentName;
  readonly doc: JsonObject;
  readonly operations: readonly Operation[];
  /** The object at a pointer, following `$ref`s (non-schema ones: headers, parameters, …). */
  deref(value: unknown): JsonObject;
  /** A validator for an (OpenAPI) schema object at a place in the document. */
  validator(schema: Json, at: string): ValidateFunction;
}

/** ajv with the OpenAPI formats ajv-formats does not define. */
function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  formatsModule.default(ajv);
  const int = (bits: number) => (n: number) =>
    Number.isInteger(n) && Math.abs(n) <= 2 ** (bits - 1);
  ajv.addFormat("int32", { type: "number", validate: int(32) });
  ajv.addFormat("int64", { type: "number", validate: int(64) });
  ajv.addFormat("float", { type: "number", validate: () => true });
  ajv.addFormat("double", { type: "number", validate: () => true });
  ajv.addFormat("byte", /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
  ajv.addFormat("binary", () => true);
  ajv.addFormat("password", () => true);
  return ajv;
}

/**
 * Loads both documents from `dir`, applies the exceptions (each must still match its document),
 * and compiles each document's `components.schemas` into one root schema.
 */
export function loadDocuments(
  dir: string,
  exceptions: readonly DocumentException[],
): Record<DocumentName, LoadedDocument> {
  const ajv = createAjv();
  const load = (name: DocumentName): LoadedDocument => {
    const doc = parse(readFileSync(join(dir, DOCUMENT_FILES[name]), "utf8")) as JsonObject;
    for (const e of exceptions) if (e.document === name) applyException(doc, e);
    const rootId = `https://braid.invalid/openapi/${name}.json`;
    const converter = new SchemaConverter(rootId);
    const components = isObject(doc.components) ? doc.components : {};
    const schemas = isObject(components.schemas) ? components.schemas : {};
    ajv.addSchema({
      $id: rootId,
      definitions: Object.fromEntries(
        Object.entries(schemas).map(([k, s]) => [
          k,
          converter.convert(s, `#/components/schemas/${pointerSegment(k)}`),
        ]),
      ),
    });
    const deref = (value: unknown): JsonObject => {
      let at = value;
      for (let hops = 0; isObject(at) && typeof at.$ref === "string"; hops++) {
        if (hops > 10) throw new Error(`a $ref cycle at ${at.$ref}`);
        at = resolvePointer(doc, at.$ref);
      }
      if (!isObject(at)) throw new Error(`not an object: ${JSON.stringify(value)}`);
      return at;
    };
    const cache = new Map<string, ValidateFunction>();
    const validator = (schema: Json, at: string) => {
      let v = cache.get(at);
      if (v === undefined) {
        const converted = converter.convert(schema, at);
        v = ajv.compile(typeof converted === "boolean" ? converted : { ...converted });
        cache.set(at, v);
      }
      return v;
    };
    const operations: Operation[] = [];
    const paths = isObject(doc.paths) ? doc.paths : {};
    const rootServers = Array.isArray(doc.servers) ? (doc.servers as JsonObject[]) : [];
    for (const [path, item] of Object.entries(paths)) {
      if (!isObject(item)) continue;
      const pathServers = Array.isArray(item.servers) ? (item.servers as JsonObject[]) : undefined;
      for (const method of HTTP_METHODS) {
        const spec = item[method];
        if (!isObject(spec)) continue;
        const opServers = Array.isArray(spec.servers) ? (spec.servers as JsonObject[]) : undefined;
        operations.push({
          document: name,
          method,
          path,
          key: operationKey(name, method, path),
          pointer: `#/paths/${pointerSegment(path)}/${method}`,
          spec,
          servers: opServers ?? pathServers ?? rootServers,
        });
      }
    }
    return { name, doc, operations, deref, validator };
  };
  return { chainweb: load("chainweb"), pact: load("pact") };
}

// ---------------------------------------------------------------------------------------------
// URLs

/**
 * The URL of an operation on a node at `origin` (`http://127.0.0.1:PORT`): the generic server of
 * the operation (the one with a `{domain}` variable) with its variables filled in, else the
 * first, whose public origin is replaced by the node's and whose network by `network`. Path
 * parameters come from `params`.
 */
export function operationUrl(
  op: Operation,
  origin: string,
  network: string,
  params: Readonly<Record<string, string | number>>,
  query?: Readonly<Record<string, string | number | boolean>>,
): string {
  const node = new URL(origin);
  const server = op.servers.find((s) => String(s.url).includes("{domain}")) ?? op.servers[0];
  if (server === undefined) throw new Error(`${op.key}: no server`);
  const known: Record<string, string> = {
    schema: node.protocol.replace(":", ""),
    domain: node.hostname,
    port: node.port,
    apiVersion: "0.0",
    chainwebVersion: network,
  };
  const fill = (text: string, what: string) =>
    text.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = params[name] ?? known[name];
      if (value === undefined) throw new Error(`${op.key}: no value for ${what} {${name}}`);
      return encodeURIComponent(String(value));
    });
  let base = fill(String(server.url), "server variable");
  const baseUrl = new URL(base);
  if (baseUrl.host !== node.host) {
    // A public server (api.chainweb.com …/mainnet01/…): the same path on this node.
    base = `${origin}${baseUrl.pathname.replace(/\/(mainnet01|testnet04)(?=\/|$)/, `/${network}`)}`;
  }
  const search =
    query === undefined
      ? ""
      : `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
  return `${base.replace(/\/$/, "")}${fill(op.path, "path parameter")}${search}`;
}

// ---------------------------------------------------------------------------------------------
// Checking a response

export interface Response {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

interface MediaType {
  readonly essence: string;
  readonly params: string;
}

/** `application/json; charset=utf-8` → essence `application/json`, params `` (charset dropped). */
export function mediaType(text: string): MediaType {
  const [essence, ...params] = text.split(";").map((p) => p.trim());
  return {
    essence: (essence ?? "").toLowerCase(),
    params: params
      .filter((p) => p !== "" && !/^charset=/i.test(p))
      .map((p) => p.toLowerCase().replace(/\s*=\s*/, "="))
      .sort()
      .join(";"),
  };
}

const sameMediaType = (a: string, b: string) => {
  const x = mediaType(a);
  const y = mediaType(b);
  return x.essence === y.essence && x.params === y.params;
};

export function describeErrors(errors: readonly ErrorObject[] | null | undefined, data: unknown) {
  return (errors ?? [])
    .slice(0, 12)
    .map((e) => {
      const value = resolvePointer(data, e.instancePath);
      const shown = JSON.stringify(value);
      return `  ${e.instancePath || "(root)"} ${e.message} [${e.schemaPath}] ${JSON.stringify(e.params)}; value: ${shown === undefined ? "undefined" : shown.slice(0, 160)}`;
    })
    .join("\n");
}

/** Server-sent events: each event's fields; comment lines skipped, `data` parsed as JSON. */
export function parseEventStream(text: string): {
  events: Record<string, unknown>[];
  problems: string[];
} {
  const events: Record<string, unknown>[] = [];
  const problems: string[] = [];
  for (const frame of text.split(/\r?\n\r?\n/)) {
    const fields: Record<string, string> = {};
    for (const line of frame.split(/\r?\n/)) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      fields[name] = name in fields ? `${fields[name]}\n${value}` : value;
    }
    if (Object.keys(fields).length === 0) continue;
    const event: Record<string, unknown> = { ...fields };
    if (fields.data !== undefined) {
      try {
        event.data = JSON.parse(fields.data);
      } catch {
        problems.push(`an event's data is not JSON: ${fields.data.slice(0, 120)}`);
      }
    }
    events.push(event);
  }
  return { events, problems };
}

/** The schema of the response's body, and the `content` entry it came from. */
export interface ResponseCheck {
  /** Problems found; empty when the response conforms. */
  readonly problems: string[];
  /** The parsed body (JSON, text, events or bytes), when it could be read. */
  readonly body?: unknown;
}

/**
 * Checks a response against the operation's documented responses: the status is documented, each
 * documented header is present and valid, the content type is one the status documents (the one
 * asked for with `accept`, when given), and the body validates against that media type's schema.
 * JSON bodies are parsed; `text/event-stream` bodies are read as a list of events; binary bodies
 * are checked for the byte length their schema gives (`minLength`/`maxLength`, or a title such as
 * "322 Work Bytes").
 */
export function checkResponse(
  loaded: LoadedDocument,
  op: Operation,
  response: Response,
  accept?: string,
): ResponseCheck {
  const problems: string[] = [];
  const responses = loaded.deref(op.spec.responses);
  const statusKey = String(response.status);
  const documented = responses[statusKey] ?? responses[`${statusKey[0]}XX`] ?? responses.default;
  if (documented === undefined) {
    return {
      problems: [
        `status ${response.status} is not documented (documented: ${Object.keys(responses).join(", ")}); body: ${response.body.toString("utf8").slice(0, 300)}`,
      ],
    };
  }
  const spec = loaded.deref(documented);
  const specPointer = `${op.pointer}/responses/${statusKey}`;

  // Headers.
  const headers = isObject(spec.headers) ? spec.headers : {};
  for (const [name, headerRef] of Object.entries(headers)) {
    const header = loaded.deref(headerRef);
    const raw = response.headers[name.toLowerCase()];
    if (raw === undefined) {
      problems.push(`header ${name} is missing`);
      continue;
    }
    const text = Array.isArray(raw) ? raw.join(", ") : raw;
    if (header.schema !== undefined) {
      const schema = loaded.deref(header.schema);
      const validate = loaded.validator(
        header.schema as Json,
        `${specPointer}/headers/${pointerSegment(name)}`,
      );
      const numeric = schema.type === "integer" || schema.type === "number";
      const value = numeric && /^-?[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : text;
      if (!validate(value)) {
        problems.push(
          `header ${name}: ${JSON.stringify(text)}\n${describeErrors(validate.errors, value)}`,
        );
      }
    }
  }

  // Content.
  const content = isObject(spec.content) ? spec.content : undefined;
  const contentType = response.headers["content-type"];
  if (content === undefined || Object.keys(content).length === 0) {
    return { problems };
  }
  if (contentType === undefined) {
    problems.push(`no content type; documented: ${Object.keys(content).join(", ")}`);
    return { problems };
  }
  const entry = Object.keys(content).find((m) => sameMediaType(m, contentType));
  if (entry === undefined) {
    problems.push(
      `content type ${JSON.stringify(contentType)} is not documented for ${statusKey} (documented: ${Object.keys(content).join(", ")})`,
    );
    return { problems };
  }
  // The body is read as the media type asked for, when the document has it, so that a wrong
  // content type and a wrong body are reported apart.
  const asked =
    accept === undefined ? undefined : Object.keys(content).find((m) => sameMediaType(m, accept));
  if (asked !== undefined && asked !== entry) {
    problems.push(`asked for ${JSON.stringify(accept)}, answered ${JSON.stringify(contentType)}`);
  }
  const chosen = asked ?? entry;
  const media = content[chosen];
  const schema = isObject(media) ? media.schema : undefined;
  const schemaAt = `${specPointer}/content/${pointerSegment(chosen)}/schema`;
  const essence = mediaType(chosen).essence;
  let body: unknown;
  if (essence === "application/octet-stream") {
    body = response.body;
    if (isObject(schema)) {
      const s = loaded.deref(schema);
      const n = response.body.length;
      const titled = typeof s.title === "string" ? /^([0-9]+) .*Bytes$/.exec(s.title) : null;
      const min = typeof s.minLength === "number" ? s.minLength : titled ? Number(titled[1]) : 0;
      const max =
        typeof s.maxLength === "number" ? s.maxLength : titled ? Number(titled[1]) : Infinity;
      if (n < min || n > max) problems.push(`${n} bytes; the schema wants ${min} to ${max}`);
    }
    return { problems, body };
  }
  const text = response.body.toString("utf8");
  if (essence === "text/event-stream") {
    const parsed = parseEventStream(text);
    problems.push(...parsed.problems);
    body = parsed.events;
  } else if (essence === "application/json" || essence.endsWith("+json")) {
    try {
      body = JSON.parse(text);
    } catch {
      problems.push(`the body is not JSON: ${text.slice(0, 200)}`);
      return { problems };
    }
  } else {
    body = text;
  }
  if (schema !== undefined) {
    const validate = loaded.validator(schema as Json, schemaAt);
    if (!validate(body)) {
      problems.push(
        `the body does not match ${schemaAt}:\n${describeErrors(validate.errors, body)}`,
      );
    }
  }
  return { problems, body };
}

/** Validates a request body against the operation's documented request body (JSON only). */
export function checkRequestBody(
  loaded: LoadedDocument,
  op: Operation,
  body: unknown,
  contentType = "application/json",
): string[] {
  if (op.spec.requestBody === undefined) return [];
  const requestBody = loaded.deref(op.spec.requestBody);
  const content = isObject(requestBody.content) ? requestBody.content : {};
  const entry = Object.keys(content).find((m) => sameMediaType(m, contentType));
  if (entry === undefined) return [`request content type ${contentType} is not documented`];
  const media = content[entry];
  if (
    !isObject(media) ||
    media.schema === undefined ||
    mediaType(entry).essence !== "application/json"
  ) {
    return [];
  }
  const at =
    isObject(op.spec.requestBody) && typeof op.spec.requestBody.$ref === "string"
      ? `${op.spec.requestBody.$ref}/content/${pointerSegment(entry)}/schema`
      : `${op.pointer}/requestBody/content/${pointerSegment(entry)}/schema`;
  const validate = loaded.validator(media.schema as Json, at);
  return validate(body)
    ? []
    : [`the request body does not match ${at}:\n${describeErrors(validate.errors, body)}`];
}
