/**
 * SPV proofs on the node: proofs created per second (`BraidNode.spvProof`, as the endpoint makes
 * them: locate the command, walk the headers, build the chained Merkle proof, encode it) and
 * continuation proofs verified per second (the verifier block execution uses: decode, run the
 * proof, check the root is on the branch, read the defpact state). The history: an in-memory node,
 * `BLOCKS` blocks on chain 0 with `PER_BLOCK` cross-chain transfers each, the other chains caught
 * up so every target is reachable.
 * Usage: node --import tsx bench/spv.ts [blocks, default 20]
 */
import { decodeBase64Url } from "../src/crypto/index.ts";
import { DEV_ACCOUNTS } from "../src/node/genesis/accounts.ts";
import { continuationVerifier } from "../src/node/spv.ts";
import { cap, devCommand, GAS_CAP, manualNode } from "../src/node/test-support/dev-node.ts";
import { JsonNumber } from "../src/pact/values/index.ts";

const BLOCKS = Number(process.argv[2] ?? 20);
const PER_BLOCK = 10;
const SECONDS = 2;
const KS_DATA = `{"ks":{"keys":["${DEV_ACCOUNTS[1]!.publicKey}"],"pred":"keys-all"}}`;

function transfer(target: string, nonce: string) {
  return devCommand({
    code: `(coin.transfer-crosschain "sender00" "sender01" (read-keyset "ks") "${target}" 1.0)`,
    data: KS_DATA,
    caps: [
      GAS_CAP,
      cap("coin.TRANSFER_XCHAIN", "sender00", "sender01", new JsonNumber("1.0"), target),
    ],
    nonce,
    gasLimit: 3000,
  });
}

const node = manualNode();
const targets = [1, 2, 7, 19];
const keysByTarget = new Map<number, Uint8Array[]>(targets.map((t) => [t, []]));
for (let b = 0; b < BLOCKS; b++) {
  const commands = Array.from({ length: PER_BLOCK }, (_, i) =>
    transfer(String(targets[i % targets.length]), `b${b}-${i}`),
  );
  node.commands.submit(0, commands);
  const block = node.producer.mine(0);
  if (block.requestKeys.length !== PER_BLOCK) throw new Error("a transfer was left out");
  commands.forEach((c, i) => {
    keysByTarget.get(targets[i % targets.length]!)!.push(c.hashBytes);
  });
}
const top = node.chains[0]!.head.height + 3;
for (const chain of node.chains) node.producer.ensureHeight(chain.chainId, top);

function rate(label: string, run: (i: number) => void): void {
  for (let i = 0; i < 50; i++) run(i);
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < SECONDS * 1000) run(n++);
  const seconds = (performance.now() - start) / 1000;
  console.log(`${label.padEnd(52)} ${Math.round(n / seconds).toLocaleString("en-US")} /s`);
}

const proofs = new Map<number, string[]>();
for (const target of targets) {
  const keys = keysByTarget.get(target)!;
  const made: string[] = [];
  rate(`proof creation, chain 0 → ${target}`, (i) => {
    const proof = node.commands.spvProof(0, keys[i % keys.length]!, target);
    if (made.length < keys.length) made.push(proof);
  });
  proofs.set(target, made);
  const bytes = decodeBase64Url(made[0]!).length;
  const verifier = continuationVerifier(node.chainDb, target, node.chains[target]!.head);
  rate(`  verification on chain ${target} (proof JSON ${bytes} bytes)`, (i) => {
    verifier.verifyContinuation(made[i % made.length]!);
  });
}
node.close();
