// `tern config check` (R-LSP-4): each configured language server, found (with its program) or
// missing, or not run because the untrusted workspace is where it would come from.
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { Config } from "../config/types.js";
import { resolveServerProgram } from "./programs.js";
import { configuredServers } from "./servers.js";

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** One line per server (`lsp: typescript  /usr/bin/typescript-language-server  (.ts .tsx …)`), then problems. */
export function languageServerLines(config: Config, cwd: string, env: NodeJS.ProcessEnv): string[] {
  if (config.lsp === false) return ['lsp: off ("lsp": false)'];
  const trusted = config.trustedWorkspaces.some((w) => real(w) === real(cwd));
  const { servers, warnings } = configuredServers(config);
  const lines = servers.map((spec) => {
    let refused: string | undefined;
    for (const [program, ...args] of spec.commands) {
      const found = resolveServerProgram(program, { cwd, root: cwd, env, trusted });
      if ("path" in found)
        return `lsp: ${spec.name}  ${[found.path, ...args].join(" ")}  (${spec.extensions.join(" ")})`;
      if ("refused" in found) refused ??= found.refused;
    }
    return `lsp: ${spec.name}  ${refused ?? `missing: ${spec.commands.map((c) => c[0]).join(" or ")} not found on PATH`}`;
  });
  return [...lines, ...warnings.map((w) => `lsp problem: ${w}`)];
}
