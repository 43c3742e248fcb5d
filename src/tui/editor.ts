// Ctrl+G (R-UI-14): the prompt in $VISUAL / $EDITOR. The editor gets the terminal to itself:
// raw mode off while it runs (it sets its own), and Ink's input is not read meanwhile because
// the editor runs synchronously; the edited text comes back into the composer.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type EditorResult = { ok: true; text: string } | { ok: false; error: string };

export function editInEditor(text: string, env: NodeJS.ProcessEnv = process.env): EditorResult {
  const editor = env.VISUAL || env.EDITOR || "vi";
  const dir = mkdtempSync(join(tmpdir(), "tern-prompt-"));
  const file = join(dir, "prompt.md");
  const stdin = process.stdin;
  const wasRaw = stdin.isTTY && stdin.isRaw;
  try {
    writeFileSync(file, text);
    if (wasRaw) stdin.setRawMode(false);
    // Through the shell: $EDITOR may carry arguments (`code --wait`).
    const run = spawnSync("/bin/sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit" });
    if (run.error) return { ok: false, error: `could not start ${editor}: ${run.error.message}` };
    if (run.status !== 0)
      return {
        ok: false,
        error: `${editor} exited with ${run.status ?? run.signal}; the prompt is unchanged`,
      };
    // Editors end files with a newline the prompt did not have.
    return { ok: true, text: readFileSync(file, "utf8").replace(/\n$/, "") };
  } finally {
    if (wasRaw) stdin.setRawMode(true);
    rmSync(dir, { recursive: true, force: true });
  }
}
