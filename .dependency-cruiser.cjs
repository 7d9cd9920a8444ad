/**
 * The layer rules of docs/architecture.md, checked by dependency-cruiser (`npm run depcheck`,
 * part of `npm test`): no import cycles (except the evaluator's apply/eval group), no import
 * against the layer order, and other layers reach the interpreter only through its entry points.
 */

/** Layers from the bottom up: each may import only the layers before it (and itself). */
const LAYERS = [
  ["crypto", "^src/crypto/"],
  ["pact/values", "^src/pact/values/"],
  ["command", "^src/command/"],
  ["pact/syntax", "^src/pact/syntax/"],
  ["pact/runtime", "^src/pact/runtime/"],
  ["pact/db", "^src/pact/db/"],
  ["pact/gas", "^src/pact/gas/"],
  ["pact/compile", "^src/pact/compile/"],
  ["pact/eval", "^src/pact/eval/"],
  ["pact/natives", "^src/pact/natives/"],
  ["pact/evaluate", "^src/pact/(evaluate\\.ts|test-support/)"],
  ["pact/repl", "^src/pact/repl/"],
  ["pact (entry point)", "^src/pact/index\\.ts$"],
  ["chain", "^src/chain/"],
  ["execution", "^src/execution/"],
  ["node", "^src/node/"],
  ["p2p", "^src/p2p/"],
  ["api", "^src/api/"],
  ["app", "^src/app/"],
  ["cli", "^src/cli/"],
];

/**
 * The mutual recursion of apply and eval: the runtime applies functions whose bodies are code
 * generated from the IR, which calls back into the runtime. These files may import each other.
 */
const EVAL_CYCLE =
  "^src/pact/eval/(runtime|codegen|callables|capabilities|defpact-engine|defpact-steps|types)\\.ts$";

/** Tests and benchmarks may use higher layers to run what they test end to end (nothing imports a test). */
const TESTS = "\\.(test|bench)\\.ts$";

/**
 * What the layers above the interpreter may import from it: its entry points, and the failures of
 * the disk under a contract state (which code that holds no state may name).
 */
const PACT_PUBLIC =
  "^src/pact/(index\\.ts|values/index\\.ts|db/index\\.ts|db/storage-failure\\.ts)$";
/** The failures of the disk under a contract state: naming them reaches no state. */
const STORAGE_FAILURES = "^src/pact/db/storage-failure\\.ts$";

const upward = LAYERS.map(([name, path], i) => {
  const above = LAYERS.slice(i + 1);
  return {
    name: `layer-${name.replace(/[^a-z]+/g, "-")}`,
    comment: `${name} may import only the layers below it: not ${above.map(([n]) => n).join(", ")}`,
    severity: "error",
    from: { path, pathNot: TESTS },
    to: { path: above.map(([, p]) => p) },
  };
}).filter((rule) => rule.to.path.length > 0);

module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      comment: "an import cycle (only the evaluator's apply/eval group may import each other)",
      severity: "error",
      from: { pathNot: EVAL_CYCLE },
      to: { circular: true },
    },
    {
      name: "no-cycle-through-eval-group",
      comment: "a cycle from the evaluator's apply/eval group through a file outside it",
      severity: "error",
      from: { path: EVAL_CYCLE },
      to: { circular: true, viaSomeNot: EVAL_CYCLE },
    },
    ...upward,
    {
      name: "api-through-node-ports",
      comment:
        "the API reaches the node only through its ports (src/node/ports.ts), handed over by the composition root",
      severity: "error",
      from: { path: "^src/api/", pathNot: `${TESTS}|/test-support/` },
      to: { path: "^src/node/", pathNot: "^src/node/ports\\.ts$" },
    },
    {
      name: "p2p-through-node-ports",
      comment:
        "the P2P layer reaches the node only through its ports (src/node/ports.ts), as the API does",
      severity: "error",
      from: { path: "^src/p2p/", pathNot: `${TESTS}|/test-support/` },
      to: { path: "^src/node/", pathNot: "^src/node/ports\\.ts$" },
    },
    {
      name: "app-and-cli-through-node-root",
      comment:
        "the composition root of a running node (src/app) and the CLI open the node through node.ts and its options, and use it through its ports",
      severity: "error",
      from: { path: "^src/(app|cli)/", pathNot: TESTS },
      to: { path: "^src/node/", pathNot: "^src/node/(node|ports|options|logger)\\.ts$" },
    },
    {
      name: "pact-entry-point",
      comment:
        "execution, node, api, app and cli use the interpreter through src/pact/index.ts (and the public index.ts of pact/values and pact/db)",
      severity: "error",
      from: { path: "^src/(execution|node|api|app|cli)/" },
      to: { path: "^src/pact/", pathNot: PACT_PUBLIC },
    },
    {
      name: "node-contract-state",
      comment:
        "in the node, contract states (src/pact/db) are reached only through the executors (src/node/executor: ChainState, the execution threads, block execution, local, a fork's overlay); the disk's failures (storage-failure.ts) any file may name",
      severity: "error",
      from: {
        path: "^src/node/",
        pathNot: [TESTS, "^src/node/executor/", "^src/node/test-support/"],
      },
      to: { path: "^src/pact/db/", pathNot: STORAGE_FAILURES },
    },
    {
      name: "command-pact-values",
      comment: "command sits below the interpreter: of it, only pact/values",
      severity: "error",
      from: { path: "^src/command/" },
      to: { path: "^src/pact/", pathNot: "^src/pact/values/" },
    },
    {
      name: "node-not-api-service",
      comment: "the node's service API (src/api/service) may not use the CLI or the dev server",
      severity: "error",
      from: { path: "^src/api/service/" },
      to: { path: "^src/(cli|api/devserver)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
