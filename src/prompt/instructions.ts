// The instruction files of R-WF-1 as prompt text: in order, each under a heading naming where it
// came from and a `File:` line with its path, the whole capped at 64 KB (a notice names what was
// cut). `belowWorkspace` finds the files of folders under the workspace that a tool touched;
// they join as notes after the cached prefix, never in it.
import { statSync } from "node:fs";
import { join, relative } from "node:path";
import {
  foldersBetween,
  type InstructionContext,
  type InstructionFile,
  InstructionReader,
} from "./instruction-files.js";

export const INSTRUCTIONS_CAP_BYTES = 64 * 1024;

export interface LoadedInstructions {
  files: InstructionFile[];
  warnings: string[];
  /** Reads folders below the workspace later, sharing what was read (each file once). */
  reader: InstructionReader;
}

function folderLabel(root: string, cwd: string, dir: string, name: string): string {
  if (dir === cwd) return `Project instructions (from ${name} in the workspace)`;
  if (dir === root) return `Project instructions (from ${name} in the repository root)`;
  return `Project instructions (from ${relative(root, join(dir, name))})`;
}

/** `~/.claude`, where Claude Code keeps the person's memory, when Claude's files are read. */
export function userClaudeFolder(ctx: Pick<InstructionContext, "compat" | "userHome">): string | undefined {
  return ctx.compat.claude && ctx.userHome ? join(ctx.userHome, ".claude") : undefined;
}

/** `$TERN_HOME/AGENTS.md`, then the repository root down to the workspace, with imports. */
export function loadInstructions(ctx: InstructionContext): LoadedInstructions {
  const reader = new InstructionReader(ctx);
  // TERN_HOME holds tern's own file only: CLAUDE.md there is not the user's Claude memory.
  reader.readFolder(ctx.home, () => "User instructions (from AGENTS.md in TERN_HOME)", ["AGENTS.md"]);
  // Claude Code's user memory, `~/.claude/CLAUDE.md` (R-WF-1 with `compat.claude`): the person's own.
  const claudeHome = userClaudeFolder(ctx);
  if (claudeHome)
    reader.readFolder(claudeHome, () => "User instructions (from ~/.claude/CLAUDE.md)", ["CLAUDE.md"]);
  const root = reader.root;
  for (const dir of foldersBetween(root, ctx.cwd))
    reader.readFolder(dir, (name) => folderLabel(root, ctx.cwd, dir, name));
  return { files: [...reader.files], warnings: reader.takeWarnings(), reader };
}

/** One file as the prompt carries it. */
export function instructionSection(file: InstructionFile): string {
  return `# ${file.label}\nFile: ${file.path}\n\n${file.text}`;
}

/** The sections, cut to 64 KB in total; the notice names the file cut and those left out. */
export function formatInstructions(files: readonly InstructionFile[]): { text: string; warnings: string[] } {
  const sections: string[] = [];
  let used = 0;
  let cut: string | undefined;
  const dropped: string[] = [];
  for (const file of files) {
    if (cut) {
      dropped.push(file.path);
      continue;
    }
    const section = instructionSection(file);
    const bytes = Buffer.byteLength(section);
    if (used + bytes <= INSTRUCTIONS_CAP_BYTES) {
      sections.push(section);
      used += bytes;
      continue;
    }
    cut = file.path;
    const room = INSTRUCTIONS_CAP_BYTES - used;
    const kept = Buffer.from(section)
      .subarray(0, Math.max(0, room))
      .toString("utf8")
      .replace(/\uFFFD$/, "");
    sections.push(
      `${kept}\n[… cut here: instruction files are capped at 64 KB; read ${file.path} for the rest]`,
    );
    used = INSTRUCTIONS_CAP_BYTES;
  }
  const warnings = cut
    ? [
        `instruction files are over 64 KB: ${cut} was cut${dropped.length ? `; not loaded: ${dropped.join(", ")}` : ""}`,
      ]
    : [];
  return { text: sections.join("\n\n"), warnings };
}

/**
 * The instruction files of the folders between the workspace (excluded: its file is in the
 * prompt already) and each `touched` path (what a tool used), not read yet. Each folder is
 * looked at once, and only if it is one (a tool batch names the same folders many times, and
 * files: this runs after every batch).
 */
export function belowWorkspace(
  reader: InstructionReader,
  cwd: string,
  touched: Iterable<string>,
): InstructionFile[] {
  const folders = new Set<string>();
  for (const path of touched) for (const dir of foldersBetween(cwd, path).slice(1)) folders.add(dir);
  const added: InstructionFile[] = [];
  for (const dir of folders)
    if (isFolder(dir))
      added.push(
        ...reader.readFolder(
          dir,
          (name) => `Project instructions (from ${relative(reader.root, join(dir, name))})`,
        ),
      );
  return added;
}

/** A path the kernel cannot stat (a model's over-long word, a bad byte) names no folder, never an error. */
export function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}
