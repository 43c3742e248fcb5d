// Instruction files of R-WF-1: `$TERN_HOME/AGENTS.md`, then each folder from the repository root
// down to the workspace (`AGENTS.md`, else `CLAUDE.md`, else `GEMINI.md`), each followed by the
// files it imports with `@path` (Claude Code's syntax: relative to the importing file, not inside
// code spans or blocks, five hops at most). Imports stay inside the repository, the workspace
// or TERN_HOME; a cycle, an escape or an unreadable file is a one-line notice, never a failure.
import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { foreignWorkspaceFile, pathReach } from "../config/workspace-reach.js";
import { workspaceTrusted } from "../config/workspace-trust.js";
import { normalizeText, readTextBounded, UnreadableFile } from "./bounded-read.js";

export interface CompatSwitches {
  /** Claude Code's files: CLAUDE.md, .claude/commands, .claude/skills, ~/.claude/…, .mcp.json. */
  claude: boolean;
  /** Other agents' files: GEMINI.md, .agents/skills. */
  agents: boolean;
}

export interface InstructionFile {
  /** Absolute path. */
  path: string;
  /** The heading it carries in the prompt. */
  label: string;
  text: string;
  /** The file that imported it, when it came by `@path`. */
  importedBy?: string;
}

export interface InstructionContext {
  cwd: string;
  home: string;
  /** The user's home folder (`~` in an import); HOME from the environment. */
  userHome?: string;
  compat: CompatSwitches;
  /** The person's `trustedWorkspaces` (§10): a trusted workspace's files may import from TERN_HOME. */
  trustedWorkspaces?: readonly string[];
}

export const MAX_IMPORT_DEPTH = 5;
/** No single file is read past this: the whole is capped at 64 KB anyway. */
const READ_LIMIT = 64 * 1024 + 1;

/** The nearest folder at or above `cwd` holding `.git`; `cwd` itself when there is none. */
export function repositoryRoot(cwd: string): string {
  const start = resolve(cwd);
  // `dir` is resolved already: a name appended needs no normalising (path.join would, in JavaScript).
  for (let dir = start; ; ) {
    if (existsSync(dir.endsWith(sep) ? `${dir}.git` : `${dir}${sep}.git`)) return dir;
    const up = dirname(dir);
    if (up === dir) return start;
    dir = up;
  }
}

/** The instruction file names a folder is searched for, in order (the first present wins). */
export function instructionNames(compat: CompatSwitches): string[] {
  return [
    // Codex: AGENTS.override.md wins over AGENTS.md in its folder (R-WF-7).
    ...(compat.agents ? ["AGENTS.override.md"] : []),
    "AGENTS.md",
    ...(compat.claude ? ["CLAUDE.md"] : []),
    ...(compat.agents ? ["GEMINI.md"] : []),
  ];
}

/** The folders from `top` down to `bottom` (both included); [] when bottom is not under top. */
export function foldersBetween(top: string, bottom: string): string[] {
  const rel = relative(top, bottom);
  if (rel.startsWith("..") || isAbsolute(rel)) return [];
  const out = [top];
  let dir = top;
  for (const part of rel ? rel.split(sep) : []) out.push((dir = join(dir, part)));
  return out;
}

const realOrSelf = (p: string) => {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
};

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

/** Text with code blocks and code spans blanked: imports are not read there (Claude Code's rule). */
function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The `@path` tokens of a text, in order (`@alice` or an e-mail address are dropped later: no such file). */
export function importTokens(text: string): string[] {
  return [...withoutCode(text).matchAll(/(?:^|\s)@((?:\\ |[^\s])+)/g)].map((m) =>
    m[1].replace(/\\ /g, " ").replace(/[.,;:!?)\]]+$/, ""),
  );
}

/** Reads instruction files and their imports once each, collecting notices. */
export class InstructionReader {
  readonly files: InstructionFile[] = [];
  readonly warnings: string[] = [];
  /** Real paths already read, so each file is carried once. */
  private readonly seen = new Set<string>();
  private readonly roots: string[];
  /** The repository root of the workspace (`repositoryRoot`), found once. */
  readonly root: string;

  constructor(private readonly ctx: InstructionContext) {
    this.root = repositoryRoot(ctx.cwd);
    this.roots = [this.root, ctx.cwd, ctx.home].map((r) => realOrSelf(resolve(r)));
    this.trusted = workspaceTrusted(ctx.cwd, ctx.trustedWorkspaces ?? []);
  }

  /** Whether the person trusts the workspace (the one check, config/workspace-trust.ts). */
  private readonly trusted: boolean;

  /** Counts a file as carried already (a resumed session's notes). */
  markRead(path: string): void {
    this.seen.add(realOrSelf(path));
  }

  /** The notices gathered since the last call. */
  takeWarnings(): string[] {
    return this.warnings.splice(0);
  }

  /** The first instruction file present in `dir`, read with its imports; the files added. */
  readFolder(
    dir: string,
    label: (name: string) => string,
    names: readonly string[] = instructionNames(this.ctx.compat),
  ): InstructionFile[] {
    for (const name of names) {
      // A cheap look first: most folders have none, and a failed realpath or open costs far more.
      if (!existsSync(join(dir, name))) continue;
      // A repository's own file leading elsewhere (`CLAUDE.md -> ~/.ssh/id_rsa`) is not read
      // unless the workspace is trusted (§10); TERN_HOME's AGENTS.md is the person's own.
      const own = dir === this.ctx.home || (this.ctx.userHome && dir === join(this.ctx.userHome, ".claude"));
      const foreign = own
        ? undefined
        : foreignWorkspaceFile(join(dir, name), {
            roots: this.roots.slice(0, 2),
            home: this.ctx.home,
            trusted: this.trusted,
          });
      if (foreign) {
        this.warnings.push(foreign);
        return [];
      }
      const before = this.files.length;
      const found = this.readFile(join(dir, name), label(name), undefined, []);
      if (found) return this.files.slice(before);
    }
    return [];
  }

  /** true when the file exists (read now, or earlier). */
  private readFile(path: string, label: string, importedBy: string | undefined, chain: string[]): boolean {
    const real = realOrSelf(path);
    if (chain.includes(real)) {
      this.warnings.push(`${importedBy}: import cycle back to ${path} ignored`);
      return true;
    }
    if (this.seen.has(real)) return true;
    let read: ReturnType<typeof readTextBounded>;
    try {
      read = readTextBounded(path, READ_LIMIT);
    } catch (e) {
      if (!(e instanceof UnreadableFile)) throw e;
      this.warnings.push(`${path}: ${e.message}; not loaded`);
      return true;
    }
    if (!read) return false;
    this.seen.add(real);
    const text = normalizeText(read.text);
    if (text) this.files.push({ path, label, text, ...(importedBy ? { importedBy } : {}) });
    this.readImports(path, text, [...chain, real]);
    return true;
  }

  private readImports(path: string, text: string, chain: string[]): void {
    // One rule with `@file` attachments (config/workspace-reach.ts): the real path inside the
    // repository or the workspace; TERN_HOME (keys) only for the person's own AGENTS.md and its
    // imports, or a trusted workspace's files (§10); `.git` internals never.
    const homeAllowed = this.trusted || inside(this.roots[2], realOrSelf(path));
    for (const token of importTokens(text)) {
      const target = this.resolveImport(path, token);
      if (!target) continue;
      const reach = pathReach(target, { roots: this.roots.slice(0, 2), home: this.ctx.home, homeAllowed });
      // `@~/…` from the person's own instruction file reaches their home folder, as in Claude Code.
      if (
        reach.verdict !== "inside" &&
        !(reach.verdict === "outside" && this.userImport(chain, token, target))
      ) {
        // Only a name that looks like a path is worth a notice; `@alice` is a mention.
        if (token.includes("/") && existsSync(target))
          this.warnings.push(
            reach.verdict === "never"
              ? `${path}: import @${token} not loaded: ${reach.why}`
              : `${path}: import @${token} is outside the repository, workspace and TERN_HOME; not loaded`,
          );
        continue;
      }
      if (chain.length > MAX_IMPORT_DEPTH) {
        if (existsSync(target))
          this.warnings.push(
            `${path}: import @${token} is more than ${MAX_IMPORT_DEPTH} levels deep; not loaded`,
          );
        continue;
      }
      this.readFile(target, `Imported by ${path}`, path, chain);
    }
  }

  /**
   * `@~/…` from the user's own instruction file (TERN_HOME's, and what it imports): Claude Code
   * lets user-level memory import from the home folder. A workspace's files never reach it.
   */
  private userImport(chain: readonly string[], token: string, target: string): boolean {
    const home = this.ctx.userHome;
    if (!home || !(token === "~" || token.startsWith("~/")) || chain.length === 0) return false;
    // The chain starts at the person's own file: TERN_HOME's AGENTS.md or ~/.claude/CLAUDE.md.
    const own = [this.ctx.home, join(home, ".claude")].some((d) => inside(realOrSelf(resolve(d)), chain[0]));
    return own && inside(realOrSelf(home), realOrSelf(target));
  }

  private resolveImport(from: string, token: string): string | undefined {
    if (!token) return undefined;
    if (token === "~" || token.startsWith("~/")) {
      const home = this.ctx.userHome;
      return home ? join(home, token.slice(1)) : undefined;
    }
    return resolve(dirname(from), token);
  }
}
