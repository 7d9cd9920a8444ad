/**
 * Plain HTTP requests for end-to-end tests, on `node:http` so that any method may carry a body
 * (Chainweb's mining API documents bodies on GET requests) and so that a streaming response can be
 * read for a while and then dropped.
 */
import http, { type IncomingHttpHeaders } from "node:http";

export interface RawRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON value (sent as `application/json` unless a content type is given), or bytes. */
  readonly body?: unknown;
  /** Bounds the whole request (default 15 s). */
  readonly timeoutMs?: number;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

function encodeBody(request: RawRequest): { bytes?: Buffer; headers: Record<string, string> } {
  const headers: Record<string, string> = { ...request.headers };
  if (request.body === undefined) return { headers };
  const hasType = Object.keys(headers).some((h) => h.toLowerCase() === "content-type");
  let bytes: Buffer;
  if (request.body instanceof Uint8Array) {
    bytes = Buffer.from(request.body);
    if (!hasType) headers["content-type"] = "application/octet-stream";
  } else {
    bytes = Buffer.from(
      typeof request.body === "string" && hasType ? request.body : JSON.stringify(request.body),
    );
    if (!hasType) headers["content-type"] = "application/json";
  }
  headers["content-length"] = String(bytes.length);
  return { bytes, headers };
}

/** Sends one request and reads the whole response. */
export function rawRequest(request: RawRequest): Promise<RawResponse> {
  return readResponse(request, () => false);
}

/**
 * Sends one request and reads its response until `enough(bodySoFar)` holds (then the connection
 * is dropped), the response ends, or `timeoutMs` passes (then what arrived is returned). For
 * streams that never end. `onOpen` runs once the status and headers arrived.
 */
export function readResponse(
  request: RawRequest,
  enough: (body: Buffer) => boolean,
  onOpen?: () => void,
): Promise<RawResponse> {
  const { bytes, headers } = encodeBody(request);
  const timeoutMs = request.timeoutMs ?? 15_000;
  return new Promise((resolve, reject) => {
    let settled = false;
    const req = http.request(request.url, { method: request.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        req.destroy();
      };
      const timer = setTimeout(finish, timeoutMs);
      onOpen?.();
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > 8 << 20 || enough(Buffer.concat(chunks))) finish();
      });
      res.on("end", finish);
      res.on("error", finish);
    });
    const failTimer = setTimeout(() => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(new Error(`${request.method} ${request.url}: no response in ${timeoutMs} ms`));
    }, timeoutMs);
    req.on("response", () => clearTimeout(failTimer));
    req.on("error", (e) => {
      clearTimeout(failTimer);
      if (!settled) {
        settled = true;
        reject(e);
      }
    });
    req.end(bytes);
  });
}
