/**
 * The relay a test network runs inside its hub namespace (`ip netns exec HUB node … hub-relay.ts
 * SOCKET SUBNET`): the test process, which stays in the root namespace, cannot reach the hosts'
 * addresses, but it can connect to this Unix socket (a file, seen from every namespace). Each
 * connection opens with one line `ADDRESS PORT\n` naming a host in the subnet; the relay connects
 * there from the hub and then passes the bytes both ways untouched.
 */
import { createConnection, createServer, type Socket } from "node:net";

/** The longest opening line read before the connection is refused. */
const MAX_HEADER_BYTES = 64;

const [socketPath, subnet] = process.argv.slice(2);
if (socketPath === undefined || subnet === undefined) {
  throw new Error("usage: hub-relay.ts SOCKET_PATH SUBNET_PREFIX (e.g. 10.77.0.)");
}

/** `host:port` when the line names a host of the test network's subnet, else undefined. */
function target(line: string): { host: string; port: number } | undefined {
  const match = /^(\d+\.\d+\.\d+\.\d+) (\d{1,5})$/.exec(line);
  if (match === null || !match[1]!.startsWith(subnet!)) return undefined;
  return { host: match[1]!, port: Number(match[2]) };
}

function relay(client: Socket): void {
  let header = Buffer.alloc(0);
  client.on("error", () => client.destroy());
  const onData = (chunk: Buffer) => {
    header = Buffer.concat([header, chunk]);
    const end = header.indexOf("\n");
    if (end === -1) {
      if (header.length > MAX_HEADER_BYTES) client.destroy();
      return;
    }
    client.off("data", onData);
    const to = target(header.subarray(0, end).toString("latin1"));
    if (to === undefined) return void client.destroy();
    const upstream = createConnection(to);
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    upstream.write(header.subarray(end + 1));
    client.pipe(upstream);
    upstream.pipe(client);
  };
  client.on("data", onData);
}

createServer(relay).listen(socketPath, () => process.stdout.write("relay ready\n"));
