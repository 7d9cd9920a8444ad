/**
 * A listener that only counts, a process of its own inside a host of a test network
 * (`connection-trap.ts ADDRESS FIRST_PORT COUNT`): it listens on COUNT ports of ADDRESS from
 * FIRST_PORT and closes every connection at once, reporting each on stdout as one JSON line
 * (`{"connection": PORT}`) after `{"ready": true}`. A test names these addresses where a node must
 * never call, and counts.
 */
import { createServer } from "node:net";

const [address, firstText, countText] = process.argv.slice(2);
const first = Number(firstText);
const count = Number(countText);
if (address === undefined || !Number.isInteger(first) || !Number.isInteger(count)) {
  throw new Error("usage: connection-trap.ts ADDRESS FIRST_PORT COUNT");
}

const listening = Array.from({ length: count }, (_, i) => {
  const port = first + i;
  const server = createServer((socket) => {
    process.stdout.write(`${JSON.stringify({ connection: port })}\n`);
    socket.destroy();
  });
  return new Promise<void>((resolve) => server.listen(port, address, resolve));
});
Promise.all(listening).then(() => process.stdout.write(`${JSON.stringify({ ready: true })}\n`));
