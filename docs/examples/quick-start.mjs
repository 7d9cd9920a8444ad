// Quick start: transfer 1 KDA from sender00 to sender01 on a running Braid node with
// @kadena/client, then read both balances. Start a node (`npm start`) and run
//   node docs/examples/quick-start.mjs
// BRAID_URL picks another node (default http://127.0.0.1:8080). The README shows the part up
// to the transfer's status verbatim (test/e2e/quick-start.test.ts checks that it does).
import { createClient, createSignWithKeypair, Pact } from "@kadena/client";

const url = process.env.BRAID_URL ?? "http://127.0.0.1:8080";
const sender00 = {
  publicKey: "368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca",
  secretKey: "251a920c403ae8c8f65f59142316af3c82b631fba46ddea92ee8c95035bd2898",
};
const client = createClient(
  ({ chainId, networkId }) => `${url}/chainweb/0.0/${networkId}/chain/${chainId}/pact`,
);
const transaction = Pact.builder
  .execution(Pact.modules.coin.transfer("sender00", "sender01", { decimal: "1.0" }))
  .addSigner(sender00.publicKey, (signFor) => [
    signFor("coin.GAS"),
    signFor("coin.TRANSFER", "sender00", "sender01", { decimal: "1.0" }),
  ])
  .setMeta({ chainId: "0", senderAccount: "sender00" })
  .setNetworkId("development")
  .createTransaction();
const submitted = await client.submit(await createSignWithKeypair(sender00)(transaction));
const result = await client.listen(submitted);
console.log("request key:", submitted.requestKey);
console.log("status:", result.result.status, "gas:", result.gas);

for (const account of ["sender00", "sender01"]) {
  const read = Pact.builder
    .execution(Pact.modules.coin["get-balance"](account))
    .setMeta({ chainId: "0" })
    .setNetworkId("development")
    .createTransaction();
  const balance = await client.dirtyRead(read);
  console.log(`${account}:`, balance.result.data);
}
