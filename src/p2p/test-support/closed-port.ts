/** A port on 127.0.0.1 nothing listens on, for tests (not built into `dist/`). */
import { createServer } from "node:net";

/** A port the system gave, then freed. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
