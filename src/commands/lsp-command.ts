// `/lsp` (R-LSP-4): the session's language servers, one line each: name, state, root, process,
// open files, or why it is not running.
import type { LanguageServerStatus } from "../engine/session.js";
import type { SlashCommand } from "./host.js";

export function languageServersText(servers: readonly LanguageServerStatus[], off: boolean): string {
  if (off) return 'language servers are off ("lsp": false)';
  if (servers.length === 0)
    return "no language server started yet (one starts when a tool reads a file of its language)";
  return servers
    .map((s) => {
      const detail = s.state === "running" ? `pid ${s.pid}, ${s.openFiles} open file(s)` : (s.reason ?? "");
      return `${s.name}  ${s.state}  ${s.root}${detail ? `  ${detail}` : ""}`;
    })
    .join("\n");
}

export const lspCommand: SlashCommand = {
  name: "/lsp",
  description: "language servers: state, root, process",
  timing: "now",
  run: (host) =>
    host.print(languageServersText(host.session.status().languageServers ?? [], host.config.lsp === false)),
};
