// R-WF-1's folders below the workspace: the first time a tool touches a path under a folder that
// has its own instruction file (`packages/api/AGENTS.md`), that file joins the model context as a
// labelled note after the tool results, so the cached prefix never changes for it. A resumed
// session knows the notes it already carries from its record.
import { dirname, isAbsolute, resolve } from "node:path";
import type { InstructionReader } from "../prompt/instruction-files.js";
import { belowWorkspace, instructionSection } from "../prompt/instructions.js";
import type { RecordLine } from "../record/types.js";
import type { ToolCall } from "../vocab/messages.js";
import { commandPaths } from "./command-paths.js";

const NOTE_HEAD = /^# Project instructions \(from [^\n]*\)\nFile: ([^\n]+)\n/;

/** The folders a tool call's `path` argument (or a `bash` command) names: a file's folder, or the folder itself. */
function touchedFolders(cwd: string, calls: readonly ToolCall[]): string[] {
  const out: string[] = [];
  for (const call of calls) {
    let args: unknown = call.arguments;
    if (typeof args === "string") {
      try {
        args = JSON.parse(args);
      } catch {
        continue;
      }
    }
    const { path, command } = (args ?? {}) as { path?: unknown; command?: unknown };
    // `bash`: the folders its command enters or names (command-paths.ts).
    if (call.name === "bash" && typeof command === "string")
      for (const abs of commandPaths(cwd, command)) out.push(abs, dirname(abs));
    if (typeof path !== "string" || !path) continue;
    const abs = isAbsolute(path) ? path : resolve(cwd, path);
    // `glob`/`grep` name a folder; file tools a file. The file's own folder covers both cases
    // for a file, and a folder named as such is walked as its own parent plus itself below.
    out.push(abs, dirname(abs));
  }
  return out;
}

export class InstructionNotes {
  constructor(
    private readonly reader: InstructionReader,
    private readonly cwd: string,
  ) {}

  /** Marks the notes a resumed record already carries as read. */
  restore(archive: readonly RecordLine[]): void {
    for (const line of archive) {
      if (line.type !== "notice") continue;
      const match = NOTE_HEAD.exec(line.text);
      if (match) this.reader.markRead(match[1]);
    }
  }

  /** The note texts for the folders these calls touched that bring a file not read yet. */
  after(calls: readonly ToolCall[]): { path: string; text: string }[] {
    const notes: { path: string; text: string }[] = [];
    for (const file of belowWorkspace(this.reader, this.cwd, touchedFolders(this.cwd, calls)))
      notes.push({ path: file.path, text: instructionSection(file) });
    return notes;
  }

  warnings(): string[] {
    return this.reader.takeWarnings();
  }
}
