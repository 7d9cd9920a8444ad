/**
 * Commands parsed + hash-verified + signature-verified per second, one signer, on one core
 * (one thread, synchronous). Prints the whole-pipeline figure and each stage on its own:
 * parse (the JSON inside `cmd`), hash (finding the algorithm that matches), verify (ED25519).
 * Usage: npm run bench -- command-verify
 */

import { type CommandHashAlgorithm, commandHash } from "../src/command/hash-algorithm.ts";
import { parseCommandPayload } from "../src/command/payload.ts";
import type { CommandProblem } from "../src/command/types.ts";
import { matchingAlgorithm, parseCommand } from "../src/command/verify.ts";
import { encodeBase64Url, encodeHex, keyPairFromSeed, sign, verify } from "../src/crypto/index.ts";

/** How long each measurement runs. */
const MEASURE_MS = 2000;
/** Distinct commands cycled through, so nothing is measured on one hot input only. */
const DISTINCT_COMMANDS = 256;

const pair = keyPairFromSeed(new Uint8Array(32).fill(7));
const pubKey = encodeHex(pair.publicKey);

/** A transfer shaped like what @kadena/client sends (~700 bytes of cmd). */
function transferCmd(n: number): string {
  return JSON.stringify({
    payload: {
      exec: {
        code: `(coin.transfer "k:${pubKey}" "bob" 1.${n})`,
        data: { ks: { keys: [pubKey], pred: "keys-all" } },
      },
    },
    nonce: `bench-nonce-${n}`,
    signers: [
      {
        pubKey,
        scheme: "ED25519",
        clist: [
          { name: "coin.GAS", args: [] },
          { name: "coin.TRANSFER", args: [`k:${pubKey}`, "bob", { decimal: `1.${n}` }] },
        ],
      },
    ],
    meta: {
      gasLimit: 1000,
      gasPrice: 1e-8,
      sender: `k:${pubKey}`,
      ttl: 600,
      creationTime: 1795303514,
      chainId: "0",
    },
    networkId: "development",
  });
}

function commands(alg: CommandHashAlgorithm) {
  return Array.from({ length: DISTINCT_COMMANDS }, (_, n) => {
    const cmd = transferCmd(n);
    const hash = commandHash(cmd, alg);
    return {
      body: {
        cmd,
        hash: encodeBase64Url(hash),
        sigs: [{ sig: encodeHex(sign(hash, pair.secretKey)) }],
      },
      hashBytes: hash,
      sigBytes: sign(hash, pair.secretKey),
    };
  });
}

/** Runs `op` over the inputs for MEASURE_MS (after a short warm-up); returns operations per second. */
function measure<T>(inputs: readonly T[], op: (input: T) => unknown): number {
  const run = (ms: number) => {
    let count = 0;
    const start = process.hrtime.bigint();
    const end = start + BigInt(ms) * 1_000_000n;
    let now = start;
    while (now < end) {
      for (let i = 0; i < 64; i++) op(inputs[(count + i) % inputs.length] as T);
      count += 64;
      now = process.hrtime.bigint();
    }
    return (count * 1e9) / Number(now - start);
  };
  run(MEASURE_MS / 4);
  return run(MEASURE_MS);
}

const format = (perSecond: number) =>
  `${Math.round(perSecond).toLocaleString("en-US").padStart(10)} /s`;
const micros = (perSecond: number) => `${(1e6 / perSecond).toFixed(1).padStart(7)} µs`;

for (const alg of ["blake2s", "blake2b"] as const) {
  const inputs = commands(alg);
  for (const { body } of inputs) {
    const result = parseCommand(body);
    if (!result.ok) throw new Error(result.problems.map((p) => p.message).join("; "));
  }
  const problems: CommandProblem[] = [];
  const whole = measure(inputs, (c) => parseCommand(c.body));
  const parse = measure(inputs, (c) => parseCommandPayload(c.body.cmd, problems));
  const hash = measure(inputs, (c) => matchingAlgorithm(c.body.cmd, c.hashBytes));
  const ed25519 = measure(inputs, (c) => verify(c.hashBytes, c.sigBytes, pair.publicKey));
  if (problems.length > 0) throw new Error(problems[0]?.message);

  console.log(`cmd hashed with ${alg} (${inputs[0]?.body.cmd.length} bytes), 1 signer, one core`);
  console.log(`  parsed + hash-verified + signature-verified  ${format(whole)}  ${micros(whole)}`);
  console.log(`    parse: cmd JSON and fields                ${format(parse)}  ${micros(parse)}`);
  console.log(`    hash: find the matching algorithm         ${format(hash)}  ${micros(hash)}`);
  console.log(
    `    verify: one ED25519 signature             ${format(ed25519)}  ${micros(ed25519)}`,
  );
}
