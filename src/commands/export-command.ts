// `/export [md|json] [file]`: the session's archive printed, or written to a file (as Claude Code's
// `/export <filename>`); a file named `.json` gets JSON unless a format is named.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { exportArchive } from "../workspace/session-queries.js";
import { type CommandHost, errorText } from "./host.js";

export function exportCommand(host: CommandHost, args: string[]): void {
  const named = args.find((a) => a === "md" || a === "json");
  const file = args.find((a) => a !== named);
  const format = named ?? (file?.endsWith(".json") ? "json" : "md");
  try {
    const text = exportArchive(host.home, host.session.id, format);
    if (!file) {
      host.print(text);
      return;
    }
    const path = resolve(host.cwd, file);
    writeFileSync(path, text.endsWith("\n") ? text : `${text}\n`);
    host.print(`exported the session (${format}) to ${path}`);
  } catch (err) {
    host.error(errorText(err));
  }
}
