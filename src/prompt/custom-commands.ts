// Custom commands of R-WF-2: each markdown file under `.tern/commands`, `.claude/commands`,
// `$TERN_HOME/commands` and `~/.claude/commands` (in that precedence: project over user, tern's
// folders over Claude's) is a slash command named after its path, a subfolder giving a namespace
// (`commands/git/pr.md` is `/git:pr`). Claude Code's front matter: `description`,
// `argument-hint`, `model`, `allowed-tools`; without a description, the body's first line.
// With `compat.agents`, Gemini CLI's `.gemini/commands/**/*.toml` too (gemini-commands.ts).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { listField, splitFrontMatter, textField } from "../config/front-matter.js";
import { foreignWorkspaceFile } from "../config/workspace-reach.js";
import { workspaceTrusted } from "../config/workspace-trust.js";
import { readTextBounded, UnreadableFile } from "./bounded-read.js";
import { readGeminiCommand } from "./gemini-commands.js";
import { manifestPaths, type PluginRoot } from "../config/plugins.js";
import type { CompatSwitches } from "./instruction-files.js";
import { workflowRoots } from "./workflow-roots.js";

export interface CustomCommand {
  /** `/name` or `/ns:name`. */
  name: string;
  description: string;
  argumentHint?: string;
  model?: string;
  allowedTools: string[];
  /** The prompt text (front matter removed). */
  body: string;
  /** Absolute path of the file. */
  path: string;
  scope: "project" | "user";
  /** A Gemini CLI command (R-WF-7): its own expansion of the typed text, instead of `body`'s. */
  expand?(rest: string): string;
}

export interface CommandRoots {
  cwd: string;
  home: string;
  userHome?: string;
  compat: CompatSwitches;
  /** Entries looked at per commands folder, all depths; MAX_COMMAND_ENTRIES unless given. */
  maxEntries?: number;
  /** The person's `trustedWorkspaces`: an untrusted workspace's command leading outside it is not read (§10). */
  trustedWorkspaces?: readonly string[];
  /** Claude Code plugins (R-WF-6): their `commands/` (and manifest `commands`) as `/<plugin>:<name>`. */
  plugins?: readonly PluginRoot[];
}

/** A command file is read whole up to this; past it the file is refused with a notice. */
const MAX_COMMAND_BYTES = 256 * 1024;
const MAX_DEPTH = 4;
/** Entries of one commands folder (all depths) looked at: each is a stat, and a read at start. */
export const MAX_COMMAND_ENTRIES = 1000;
const SEGMENT = /^[A-Za-z0-9][\w.-]*$/;

interface CommandRoot {
  dir: string;
  scope: "project" | "user";
  ext: ".md" | ".toml";
  /** A plugin's namespace (`/<plugin>:<name>`). */
  plugin?: string;
}

export function commandRoots(opts: CommandRoots): CommandRoot[] {
  const roots: CommandRoot[] = workflowRoots(opts, "commands").map(({ dir, scope }) => ({
    dir,
    scope,
    ext: ".md",
  }));
  for (const plugin of opts.plugins ?? [])
    for (const dir of [join(plugin.root, "commands"), ...manifestPaths(plugin, "commands")])
      roots.push({ dir, scope: "user", ext: ".md", plugin: plugin.name });
  if (!opts.compat.agents) return roots;
  // Gemini CLI's (R-WF-7) come after tern's and Claude Code's at each level.
  const lastProject = roots.findLastIndex((r) => r.scope === "project");
  roots.splice(lastProject + 1, 0, {
    dir: join(opts.cwd, ".gemini", "commands"),
    scope: "project",
    ext: ".toml",
  });
  if (opts.userHome)
    roots.push({ dir: join(opts.userHome, ".gemini", "commands"), scope: "user", ext: ".toml" });
  return roots;
}

/** What one commands folder's walk has found, and how many entries it looked at (the bound). */
interface Found {
  files: { path: string; parts: string[] }[];
  seen: number;
  max: number;
}

function commandFiles(dir: string, ext: string, prefix: string[], depth: number, out: Found): void {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const entry of entries) {
    if (++out.seen > out.max) return;
    const path = join(dir, entry);
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(path);
    } catch {
      continue;
    }
    if (st.isDirectory()) {
      if (depth < MAX_DEPTH && SEGMENT.test(entry))
        commandFiles(path, ext, [...prefix, entry], depth + 1, out);
    } else if (entry.endsWith(ext)) out.files.push({ path, parts: [...prefix, entry.slice(0, -ext.length)] });
  }
}

function firstLine(body: string): string {
  const line = body.split("\n").find((l) => l.trim()) ?? "";
  const text = line.replace(/^#+\s*/, "").trim();
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

function readCommand(path: string, name: string, scope: "project" | "user"): CustomCommand | string {
  let read: ReturnType<typeof readTextBounded>;
  try {
    read = readTextBounded(path, MAX_COMMAND_BYTES + 1);
  } catch (e) {
    if (e instanceof UnreadableFile) return `${path}: ${e.message}; command ${name} skipped`;
    throw e;
  }
  if (!read) return `${path}: cannot read it; command ${name} skipped`;
  if (read.size > MAX_COMMAND_BYTES)
    return `${path}: ${Math.round(read.size / 1024)} KB is over the ${MAX_COMMAND_BYTES / 1024} KB a command file may hold; command ${name} skipped`;
  if (path.endsWith(".toml")) {
    const gemini = readGeminiCommand(read.text, name);
    if ("error" in gemini) return `${path}: ${gemini.error}; command ${name} skipped`;
    const body = gemini.expand("");
    return {
      name,
      description: gemini.description || firstLine(body) || "custom command",
      allowedTools: [],
      body,
      path,
      scope,
      expand: gemini.expand,
    };
  }
  const parsed = splitFrontMatter(read.text.replace(/\r\n?/g, "\n"));
  if (!parsed.ok) return `${path}: ${parsed.error}; command ${name} skipped`;
  const body = parsed.body.trim();
  const command: CustomCommand = {
    name,
    description: textField(parsed.data, "description") || firstLine(body) || "custom command",
    allowedTools: listField(parsed.data, "allowed-tools"),
    body,
    path,
    scope,
  };
  const hint = textField(parsed.data, "argument-hint");
  if (hint) command.argumentHint = hint;
  const model = textField(parsed.data, "model");
  if (model) command.model = model;
  return command;
}

/** The commands of every folder, the first folder naming a command winning; notices for bad files. */
export function findCustomCommands(opts: CommandRoots): { commands: CustomCommand[]; warnings: string[] } {
  const commands: CustomCommand[] = [];
  const warnings: string[] = [];
  const names = new Set<string>();
  const trusted = workspaceTrusted(opts.cwd, opts.trustedWorkspaces ?? []);
  for (const root of commandRoots(opts)) {
    const found: Found = { files: [], seen: 0, max: opts.maxEntries ?? MAX_COMMAND_ENTRIES };
    commandFiles(root.dir, root.ext, [], 0, found);
    if (found.seen > found.max)
      warnings.push(
        `${root.dir}: more than ${found.max} entries; the commands past them (by name) are not read`,
      );
    for (const file of found.files) {
      const name = `/${(root.plugin ? [root.plugin, ...file.parts] : file.parts).join(":")}`;
      if (names.has(name)) continue;
      if (!file.parts.every((p) => SEGMENT.test(p))) {
        warnings.push(
          `${file.path}: ${name} is not a command name (letters, digits, '.', '_', '-'); skipped`,
        );
        continue;
      }
      const foreign =
        root.scope === "project"
          ? foreignWorkspaceFile(file.path, { roots: [opts.cwd], home: opts.home, trusted })
          : undefined;
      if (foreign) {
        warnings.push(foreign);
        continue;
      }
      const read = readCommand(file.path, name, root.scope);
      if (typeof read === "string") warnings.push(read);
      else {
        commands.push(read);
        names.add(name);
      }
    }
  }
  return { commands, warnings };
}
