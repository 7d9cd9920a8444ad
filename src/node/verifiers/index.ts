/**
 * The verifier plugins Braid implements, by the names commands use, and the ones a network
 * enables at a block height (its version's `verifierPlugins`).
 */
import type { ChainwebVersion } from "../../chain/version/version.ts";
import type { VerifierPlugin, VerifierPlugins } from "../../execution/index.ts";
import { allowPlugin } from "./allow.ts";
import { hyperlaneMessagePlugin } from "./hyperlane-message.ts";
import { signedListPlugin } from "./signed-list.ts";

export const VERIFIER_PLUGINS: ReadonlyMap<string, VerifierPlugin> = new Map([
  ["allow", allowPlugin],
  ["hyperlane_v3_message", hyperlaneMessagePlugin],
  ["signed_list", signedListPlugin],
]);

/** The plugins `version` enables for a block at `height`. */
export function verifierPluginsAt(version: ChainwebVersion, height: number): VerifierPlugins {
  let names: readonly string[] = [];
  for (const epoch of version.verifierPlugins) if (epoch.fromHeight <= height) names = epoch.names;
  const enabled = new Map<string, VerifierPlugin>();
  for (const name of names) {
    const plugin = VERIFIER_PLUGINS.get(name);
    if (plugin !== undefined) enabled.set(name, plugin);
  }
  return enabled;
}
