// Claude Code plugins (R-WF-6): folders with `.claude-plugin/plugin.json` (Claude Code's plugins
// reference, code.claude.com/docs/en/plugins-reference: `name`, and optional `commands`,
// `agents`, `hooks`, `mcpServers` beside the default `commands/`, `agents/`, `skills/`,
// `hooks/hooks.json` and `.mcp.json`). They come from `--plugin-dir DIR` (the person's own
// choice), config `plugins` (an untrusted workspace's config cannot set it: untrusted.ts) and,
// with `compat.claude`, the plugins Claude Code installed (`~/.claude/plugins/installed_plugins.json`,
// version 2: `{"plugins": {"name@marketplace": [{"scope", "installPath", "projectPath"?}]}}`),
// unless `enabledPlugins` in `~/.claude/settings.json` switches one off. A project-scoped
// install obeys workspace trust. Each folder that is not a plugin is one warning.
import { readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";

export interface PluginRoot {
  /** The manifest's `name` (the folder's name without one): the namespace of its commands and agents. */
  name: string;
  /** The plugin folder: `${CLAUDE_PLUGIN_ROOT}`. */
  root: string;
  /** Where it was named: `--plugin-dir`, a config file, or installed_plugins.json. */
  source: string;
  /** The manifest, for component paths beside the default folders. */
  manifest: Record<string, unknown>;
}

const NAME = /^[A-Za-z0-9][\w.-]*$/;

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** One folder as a plugin, or why it is not one. */
export function readPlugin(dir: string, source: string): PluginRoot | string {
  try {
    if (!statSync(dir).isDirectory()) return `${dir}: not a folder; plugin not loaded`;
  } catch {
    return `${dir}: no such folder; plugin not loaded`;
  }
  const file = join(dir, ".claude-plugin", "plugin.json");
  let manifest: Record<string, unknown> = {};
  try {
    const value = readJson(file);
    if (!isObject(value)) return `${file}: expected a JSON object; plugin not loaded`;
    manifest = value;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Claude Code loads a plugin without a manifest from its default folders, named after the folder.
    if (code !== "ENOENT")
      return `${file}: ${code ? `cannot be read (${code})` : `not JSON (${(err as Error).message})`}; plugin not loaded`;
  }
  const name = typeof manifest.name === "string" ? manifest.name : basename(dir);
  if (!NAME.test(name)) return `${file}: name: '${name}' is not a plugin name; plugin not loaded`;
  return { name, root: dir, source, manifest };
}

/** A manifest's component path(s) (`"./extra"` or `["./a", "./b"]`), resolved inside the plugin. */
export function manifestPaths(plugin: PluginRoot, key: string): string[] {
  const value = plugin.manifest[key];
  const list = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
  return list.filter((v): v is string => typeof v === "string").map((p) => resolve(plugin.root, p));
}

/** `${CLAUDE_PLUGIN_ROOT}` in a hook command or a server's command, args and env. */
export function withPluginRoot(text: string, plugin: PluginRoot): string {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's placeholder, written as is
  return text.replaceAll("${CLAUDE_PLUGIN_ROOT}", plugin.root);
}

export interface PluginSources {
  cwd: string;
  /** The person's home folder (HOME). */
  userHome?: string;
  /** `--plugin-dir`, relative to the workspace. */
  flagDirs: readonly string[];
  /** Config `plugins`, each with the file that named it. */
  configDirs: readonly { dir: string; source: string }[];
  claude: boolean;
  trusted: boolean;
}

export function findPlugins(opts: PluginSources): { plugins: PluginRoot[]; warnings: string[] } {
  const plugins: PluginRoot[] = [];
  const warnings: string[] = [];
  const add = (dir: string, source: string) => {
    const read = readPlugin(dir, source);
    if (typeof read === "string") return void warnings.push(`${source}: ${read}`);
    if (plugins.some((p) => p.name === read.name))
      return void warnings.push(`${source}: ${dir}: a plugin named ${read.name} is loaded already; skipped`);
    plugins.push(read);
  };
  for (const dir of opts.flagDirs) add(resolve(opts.cwd, dir), "--plugin-dir");
  for (const { dir, source } of opts.configDirs)
    add(resolve(opts.cwd, expandHome(dir, opts.userHome)), source);
  if (opts.claude && opts.userHome) for (const p of installedPlugins(opts, warnings)) add(p.dir, p.source);
  return { plugins, warnings };
}

function expandHome(dir: string, home: string | undefined): string {
  return home && (dir === "~" || dir.startsWith("~/")) ? join(home, dir.slice(1)) : dir;
}

/** Claude Code's installed, enabled plugins for this workspace. */
function installedPlugins(opts: PluginSources, warnings: string[]): { dir: string; source: string }[] {
  const file = join(opts.userHome!, ".claude", "plugins", "installed_plugins.json");
  let installed: unknown;
  try {
    installed = readJson(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT")
      warnings.push(`${file}: not readable JSON; its plugins are not loaded`);
    return [];
  }
  const entries = isObject(installed) && isObject(installed.plugins) ? installed.plugins : undefined;
  if (!entries) {
    warnings.push(`${file}: expected {"plugins": {…}}; its plugins are not loaded`);
    return [];
  }
  const enabled = enabledPlugins(join(opts.userHome!, ".claude", "settings.json"));
  const out: { dir: string; source: string }[] = [];
  for (const [id, list] of Object.entries(entries)) {
    if (enabled[id] === false) continue;
    for (const entry of Array.isArray(list) ? list : [list]) {
      if (!isObject(entry) || typeof entry.installPath !== "string") continue;
      const scope = typeof entry.scope === "string" ? entry.scope : "user";
      if (scope !== "user") {
        if (typeof entry.projectPath !== "string" || resolve(entry.projectPath) !== resolve(opts.cwd))
          continue;
        if (!opts.trusted) {
          warnings.push(
            `${file}: plugin ${id} (installed for this project) not loaded: this workspace is not in trustedWorkspaces`,
          );
          continue;
        }
      }
      out.push({ dir: entry.installPath, source: file });
    }
  }
  return out;
}

function enabledPlugins(settings: string): Record<string, unknown> {
  try {
    const value = readJson(settings);
    return isObject(value) && isObject(value.enabledPlugins) ? value.enabledPlugins : {};
  } catch {
    return {};
  }
}
