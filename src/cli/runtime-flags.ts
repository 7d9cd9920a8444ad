/**
 * The V8 flags a node runs with under `npm start` (package.json, which runtime-flags.test.ts
 * keeps alike) and in the tests' and benches' node processes. Semi-spaces of 32 MB instead of
 * V8's 16 MB make the young generation twice as large, which halves the time a node importing
 * blocks spends collecting garbage (bench/sync.ts: 15 → 8 µs a block, a block ~9 % faster) for
 * at most 48 MB more memory. chainweb-node's binary carries its runtime's options the same way
 * (`-with-rtsopts=-N -H1G -A64M`: a 64 MB allocation area). They cannot be set from within the
 * process, and the `braid` command keeps a plain `#!/usr/bin/env node` (`env -S` is missing
 * from some systems' `env`): `NODE_OPTIONS=--max-semi-space-size=32 braid node` gives it them.
 */
export const NODE_RUNTIME_FLAGS: readonly string[] = ["--max-semi-space-size=32"];
