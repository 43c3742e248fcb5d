// Prompt history kept per workspace across runs (R-UI-14), under TERN_HOME: one JSON string per
// line in `history/<hash of the workspace path>.jsonl`. Appending a line per prompt is cheap
// and survives a crash; the file is trimmed to the newest entries when it grows far past them.
import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const KEEP = 1000;
/** A prompt longer than this (a huge paste) is sent but not kept: the file stays small to load. */
const MAX_ENTRY = 64 * 1024;

/** The workspace's name under TERN_HOME's per-workspace folders (history, clipboard-store.ts). */
export function workspaceHash(cwd: string): string {
  return createHash("sha256").update(cwd).digest("hex").slice(0, 16);
}

export class HistoryStore {
  private readonly file: string;
  private lines = 0;

  constructor(home: string, cwd: string) {
    this.file = join(home, "history", `${workspaceHash(cwd)}.jsonl`);
  }

  /** The newest entries, oldest first; a missing or damaged file gives what can be read. */
  load(): string[] {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return [];
    }
    const entries: string[] = [];
    for (const line of text.split("\n")) {
      if (!line) continue;
      this.lines++;
      try {
        const value = JSON.parse(line);
        if (typeof value === "string") entries.push(value);
      } catch {
        // A torn last line (a crash mid-append) costs that one entry only.
      }
    }
    return entries.slice(-KEEP);
  }

  /** Best effort: history that cannot be saved must never stop the prompt being sent. */
  add(text: string): void {
    if (text.length > MAX_ENTRY) return;
    try {
      mkdirSync(join(this.file, ".."), { recursive: true });
      appendFileSync(this.file, `${JSON.stringify(text)}\n`);
      this.lines++;
      if (this.lines >= KEEP * 2) {
        const kept = readFileSync(this.file, "utf8").split("\n").filter(Boolean).slice(-KEEP);
        writeFileSync(this.file, kept.map((line) => `${line}\n`).join(""));
        this.lines = kept.length;
      }
    } catch {
      // A read-only TERN_HOME loses history, nothing else.
    }
  }
}
