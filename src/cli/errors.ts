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
