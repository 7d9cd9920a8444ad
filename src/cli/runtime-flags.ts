/**
 * The V8 flags `braid` runs with: the shebang of main.ts, `npm start` and the node processes
 * the tests start all pass them (runtime-flags.test.ts keeps the three alike). Semi-spaces of
 * 32 MB instead of V8's 16 MB make the young generation twice as large, which halves the time a
 * node importing blocks spends collecting garbage (bench/sync.ts: 15 → 8 µs a block, a block
 * ~9 % faster) for at most 48 MB more memory. chainweb-node's binary carries its runtime's
 * options the same way (`-with-rtsopts=-N -H1G -A64M`: a 64 MB allocation area).
 */
export const NODE_RUNTIME_FLAGS: readonly string[] = ["--max-semi-space-size=32"];
