/**
 * `braid dev …`: the development controls of a running node (docs/devtools.md), each one POST
 * to its `/braid/dev/…` endpoint (`--node`, else `BRAID_URL`, else http://127.0.0.1:8080):
 * `mine <blocks> [--chains 3,4]`, `time <+1d|3600|…>`, `snapshot`, `revert <id>`,
 * `fund <account> --keys k1,k2 [--pred keys-all] [--amount 1000] [--chains 0,1]`; and
 * `profile <request key> [--chain c] [--json]`, a transaction's gas profile read from the
 * explorer's JSON (a GET).
 */
import { type Command, Option } from "commander";
import { UserError } from "../errors.ts";
import type { Subcommand } from "../registry.ts";
import { type ProfileAnswerJson, profileTable } from "./gas-profile-table.ts";

export const DEFAULT_NODE_URL = "http://127.0.0.1:8080";
/** The environment variable naming the node when `--node` is not given (the quick start's too). */
export const NODE_URL_VARIABLE = "BRAID_URL";
/** How long a control may take before the CLI gives up (a large `mine` takes a while). */
export const DEV_REQUEST_TIMEOUT_MS = 600_000;

/** Seconds per unit of `braid dev time`. */
const TIME_UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3_600, d: 86_400 };

interface NodeFlag {
  readonly node: string;
}

export const devCommand: Subcommand = {
  register(program, io) {
    const dev = program
      .command("dev")
      .description(
        "development controls of a running node: mine, time, snapshot, revert, fund; gas profiles",
      );
    const control = (name: string, description: string): Command =>
      dev
        .command(name)
        .description(description)
        .addOption(
          new Option("--node <url>", "the node to steer")
            .env(NODE_URL_VARIABLE)
            .default(DEFAULT_NODE_URL),
        );

    control("mine", "mine blocks now on the given chains (their neighbours keep up)")
      .argument("<blocks>", "how many blocks on each chain")
      .option("--chains <ids>", "comma-separated chain ids", "0")
      .action(async (blocks: string, flags: NodeFlag & { chains: string }) => {
        const answer = await postControl(flags.node, "mine", {
          blocks: wholeNumber(blocks, "blocks"),
          chains: chainList(flags.chains),
        });
        for (const [chainId, height] of Object.entries(answer.heights as object)) {
          io.out(`chain ${chainId}: height ${height}\n`);
        }
      });

    control("time", "move the node's clock forward: +1d, +2h, +30m, +90s or seconds")
      .argument("<amount>", "how far forward, e.g. +1d")
      .action(async (amount: string, flags: NodeFlag) => {
        const answer = await postControl(flags.node, "time", { seconds: parseDuration(amount) });
        io.out(`node time ${answer.now} (${answer.offsetSeconds} s ahead of this clock)\n`);
      });

    control("snapshot", "save the state of the whole network; prints the snapshot id").action(
      async (flags: NodeFlag) => {
        const answer = await postControl(flags.node, "snapshot", {});
        io.out(`${answer.id}\n`);
      },
    );

    control("revert", "go back to a snapshot (later blocks stay visible as orphans)")
      .argument("<id>", "a snapshot id")
      .action(async (id: string, flags: NodeFlag) => {
        const answer = await postControl(flags.node, "revert", { id: wholeNumber(id, "id") });
        io.out(`reverted to snapshot ${answer.id}: ${answer.orphaned} blocks orphaned\n`);
      });

    control("fund", "fund an account (created with the given keyset) from the faucet sender00")
      .argument("<account>", "the account, e.g. k:<public key>")
      .requiredOption("--keys <keys>", "comma-separated hex public keys of its keyset")
      .option("--pred <pred>", "keys-all, keys-any or keys-2", "keys-all")
      .option("--amount <kda>", "KDA per chain", "1000.0")
      .option("--chains <ids>", "comma-separated chain ids", "0")
      .action(
        async (
          account: string,
          flags: NodeFlag & { keys: string; pred: string; amount: string; chains: string },
        ) => {
          const answer = await postControl(flags.node, "fund", {
            account,
            keys: flags.keys.split(",").map((k) => k.trim()),
            pred: flags.pred,
            amount: flags.amount,
            chains: chainList(flags.chains),
          });
          for (const [chainId, key] of Object.entries(answer.requestKeys as object)) {
            io.out(`chain ${chainId}: ${key}\n`);
          }
        },
      );

    control(
      "profile",
      "the gas profile of a transaction in a block, executed again at its block's state",
    )
      .argument("<requestKey>", "the transaction's request key")
      .option("--chain <id>", "its chain (found from the request key when not given)")
      .option("--json", "print the profile as the node sends it")
      .action(async (key: string, flags: NodeFlag & { chain?: string; json?: boolean }) => {
        const chain =
          flags.chain === undefined
            ? (await ask(flags.node, "find", `braid/api/tx/${encodeURIComponent(key)}`)).chain
            : wholeNumber(flags.chain, "a chain id");
        const path = `braid/api/chain/${chain}/tx/${encodeURIComponent(key)}/profile`;
        const answer = await ask(flags.node, "profile", path);
        io.out(
          flags.json === true
            ? `${JSON.stringify(answer, null, 2)}\n`
            : profileTable(answer as unknown as ProfileAnswerJson),
        );
      });
  },
};

/** `+1d`, `2h`, `30m`, `90s` or plain seconds, as seconds. */
export function parseDuration(text: string): number {
  const match = /^\+?([0-9]{1,12})([smhd]?)$/.exec(text.trim());
  if (match === null) {
    throw new UserError(
      `time must be a whole number of seconds or of s, m, h or d, e.g. +1d or 3600, got ${JSON.stringify(text.slice(0, 40))}`,
    );
  }
  return Number(match[1]) * TIME_UNITS[match[2] || "s"]!;
}

function wholeNumber(text: string, name: string): number {
  if (!/^[0-9]{1,15}$/.test(text)) {
    throw new UserError(`${name} must be a whole number, got ${JSON.stringify(text.slice(0, 40))}`);
  }
  return Number(text);
}

function chainList(text: string): number[] {
  return text.split(",").map((part) => wholeNumber(part.trim(), "a chain id"));
}

/** POSTs a control to the node; its JSON answer, or a UserError with the node's reason. */
function postControl(
  nodeUrl: string,
  name: string,
  body: object,
): Promise<Record<string, unknown>> {
  return ask(nodeUrl, name, `braid/dev/${name}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * Asks the node for `path` (a GET unless `init` says otherwise); its JSON answer, or a UserError
 * with the node's reason for refusing `name`.
 */
async function ask(
  nodeUrl: string,
  name: string,
  path: string,
  init: RequestInit = {},
): Promise<Record<string, unknown>> {
  const url = `${nodeUrl.replace(/\/+$/, "")}/${path}`;
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(DEV_REQUEST_TIMEOUT_MS) });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (e as Error).message;
    throw new UserError(`cannot reach the node at ${nodeUrl}: ${reason}`);
  }
  const text = await response.text();
  if (!response.ok) throw new UserError(`the node refused ${name}: ${text.trim()}`);
  return JSON.parse(text) as Record<string, unknown>;
}
