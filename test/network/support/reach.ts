/**
 * How the test process, which stays in the root namespace, reaches the hosts of its test networks:
 * `fetch` (and so `@kadena/client`) goes through a global undici dispatcher that sends a request
 * for a test network's address to that network's hub relay (`hub-relay.ts`) over its Unix socket,
 * and every other request the ordinary way. Tests then use the nodes' own URLs
 * (`http://10.77.N.H:PORT`), the ones peers use.
 */
import { createConnection } from "node:net";
import { Agent, buildConnector, setGlobalDispatcher } from "undici";

/** The relay's Unix socket of each test network's subnet prefix (`10.77.N.`). */
const relays = new Map<string, string>();

const direct = buildConnector({});

function relayFor(hostname: string): string | undefined {
  for (const [subnet, socketPath] of relays) if (hostname.startsWith(subnet)) return socketPath;
  return undefined;
}

let installed = false;

/** Sends the requests for `subnet`'s addresses through the relay listening on `socketPath`. */
export function routeThroughRelay(subnet: string, socketPath: string): void {
  relays.set(subnet, socketPath);
  if (installed) return;
  installed = true;
  setGlobalDispatcher(
    new Agent({
      connect(options, callback) {
        const socketPath = relayFor(options.hostname);
        if (socketPath === undefined) return direct(options, callback);
        const socket = createConnection(socketPath);
        const failed = (e: Error) => callback(e, null);
        socket.once("error", failed);
        socket.once("connect", () => {
          socket.off("error", failed);
          socket.write(`${options.hostname} ${options.port || 80}\n`);
          callback(null, socket);
        });
        return socket;
      },
    }),
  );
}

/** Forgets `subnet`'s relay (its network closed). */
export function stopRouting(subnet: string): void {
  relays.delete(subnet);
}
