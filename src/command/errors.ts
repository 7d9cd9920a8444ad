/**
 * A problem with input a person wrote: a YAML request, a key file, signing data. The message is one
 * line naming the file, the field and the bad value; the CLI prints it as is, without a stack trace.
 */
export class CommandInputError extends Error {
  override name = "CommandInputError";
}
