import { startNode } from "../src/node/test-support/node-process.ts";
import { clientFor, SENDER00, signWith, transferCommand } from "./e2e/support/kadena.ts";
import { launchBrowser } from "./e2e/support/browser.ts";
const node = await startNode();
const b = await launchBrowser();
try {
  b.page.on("console", (m) => console.log("console:", m.text()));
  b.page.on("pageerror", (e) => console.log("pageerror:", e.message));
  const client = clientFor(node.url, "pact");
  const sent = await client.submit(await signWith(SENDER00, transferCommand(SENDER00, "sender01", "1.5")));
  await client.listen(sent);
  await b.page.goto(`${node.url}/`);
  await new Promise((r) => setTimeout(r, 1500));
  console.log("status:", await b.page.textContent("#status"));
  console.log((await b.page.textContent("#view"))?.slice(0, 500));
} finally { await b.close(); await node.stop(); }
