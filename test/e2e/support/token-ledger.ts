/**
 * A small token ledger in the style of marmalade's (Braid's own, for the gas profile tests): a
 * table of balances with guards, a managed `TRANSFER` capability whose manager spends the signed
 * amount (and emits its event), and a `transfer` that enforces the sender's guard, reads and
 * writes both rows. Deployed in the `free` namespace by sender00, whose key guards the accounts
 * `alice` and `bob`; sender00 pays the gas of both commands.
 */
import type { IClient, IUnsignedCommand } from "@kadena/client";
import { Pact } from "@kadena/client";
import { NETWORK, SENDER00, signWith } from "./kadena.ts";

export const LEDGER_SOURCE = `
(namespace 'free)
(define-keyset "free.ledger-admin" (read-keyset "admin"))
(module ledger "free.ledger-admin"
  (defschema entry balance:decimal guard:guard)
  (deftable entries:{entry})

  (defcap TRANSFER:bool (from:string to:string amount:decimal)
    @managed amount TRANSFER-mgr
    (enforce-guard (at 'guard (read entries from)))
    (enforce (> amount 0.0) "a transfer moves a positive amount"))

  (defun TRANSFER-mgr:decimal (signed:decimal asked:decimal)
    (let ((left (- signed asked)))
      (enforce (>= left 0.0) (format "{} asked, only {} signed" [asked signed]))
      left))

  (defun open-account:string (account:string guard:guard balance:decimal)
    (insert entries account { 'balance: balance, 'guard: guard }))

  (defun transfer:string (from:string to:string amount:decimal)
    (with-capability (TRANSFER from to amount)
      (with-read entries from { 'balance := paid }
        (enforce (<= amount paid) "not enough to move")
        (update entries from { 'balance: (- paid amount) }))
      (with-read entries to { 'balance := held }
        (update entries to { 'balance: (+ held amount) }))
      (format "{} moved {} to {}" [from amount to])))
)
(create-table entries)
(open-account "alice" (read-keyset "admin") 100.0)
(open-account "bob" (read-keyset "admin") 0.0)
`;

const admin = { keys: [SENDER00.publicKey], pred: "keys-all" };

/** The deployment: the module, its table and the two accounts. */
export function deployCommand(): IUnsignedCommand {
  return (
    Pact.builder
      .execution(LEDGER_SOURCE)
      .addData("admin", admin)
      // Unscoped: the admin keyset is enforced while deploying, and gas is paid.
      .addSigner(SENDER00.publicKey)
      .setMeta({ chainId: "0", senderAccount: "sender00", gasLimit: 100_000 })
      .setNetworkId(NETWORK)
      .setNonce("ledger-deploy")
      .createTransaction()
  );
}

/** alice moves 12.5 to bob, signed by sender00's key for gas and for the transfer. */
export function transferCommand(): IUnsignedCommand {
  return Pact.builder
    .execution('(free.ledger.transfer "alice" "bob" 12.5)')
    .addSigner(SENDER00.publicKey, (withCap) => [
      withCap("coin.GAS"),
      withCap("free.ledger.TRANSFER", "alice", "bob", { decimal: "12.5" }),
    ])
    .setMeta({ chainId: "0", senderAccount: "sender00", gasLimit: 2_000 })
    .setNetworkId(NETWORK)
    .setNonce("ledger-transfer")
    .createTransaction();
}

/** Deploys the ledger, then sends the transfer; the transfer's request key and gas. */
export async function deployAndTransfer(client: IClient): Promise<{ key: string; gas: number }> {
  const deployed = await client.listen(
    await client.submit(await signWith(SENDER00, deployCommand())),
  );
  if (deployed.result.status !== "success") {
    throw new Error(`the ledger did not deploy: ${JSON.stringify(deployed.result)}`);
  }
  const sent = await client.submit(await signWith(SENDER00, transferCommand()));
  const result = await client.listen(sent);
  if (result.result.status !== "success") {
    throw new Error(`the transfer failed: ${JSON.stringify(result.result)}`);
  }
  return { key: sent.requestKey, gas: result.gas };
}
