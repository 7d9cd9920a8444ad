/**
 * A request the server refuses: the status code and a plain-text reason that names the bad value.
 * Clients such as @kadena/client turn any non-2xx reply into an error carrying the body text, so
 * the reason is all the caller sees.
 */
export class HttpError extends Error {
  override readonly name = "HttpError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}
