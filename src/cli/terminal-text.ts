/**
 * Text printed to a terminal from untrusted input (a `.repl` file, a YAML request or server
 * configuration, error excerpts quoting them): control characters are shown escaped, so a file
 * cannot move the cursor, clear the screen or retitle the window.
 */

// C0 controls except tab and line feed, DEL, and the C1 controls (ESC's 8-bit forms).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with every control character but tab and line feed written as `\uXXXX`. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
