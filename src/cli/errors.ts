/**
 * An error caused by the user's input (a missing file, bad YAML, a wrong key). The CLI prints its
 * message as one line on stderr and exits non-zero, with no stack trace.
 */
export class UserError extends Error {
  override name = "UserError";
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Why a server could not listen on `host`:`port`, as a `UserError` (other errors as they are). */
export function listenError(error: unknown, host: string, port: number): unknown {
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (typeof code !== "string") return error;
  const where = `cannot listen on ${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (syscall === "getaddrinfo") {
    return new UserError(`${where}: the host name does not resolve to an address (${code})`);
  }
  const reasons: Record<string, string> = {
    EADDRINUSE: "the port is in use",
    EACCES: "permission denied",
    EADDRNOTAVAIL: "the address is not one of this machine's",
  };
  return new UserError(`${where}: ${reasons[code] ?? (error as Error).message} (${code})`);
}
