// A plugin's MCP servers (R-WF-6): its `.mcp.json` and the manifest's `mcpServers` (an object, or
// a path to such a file), Claude Code's shape as in a project's `.mcp.json` (R-WF-3), with
// `${CLAUDE_PLUGIN_ROOT}` in command, args, env, url and headers. Tool sets are named
// `plugin_<plugin>_<server>`, so their tools answer to Claude Code's
// `mcp__plugin_<plugin>_<server>__<tool>`. A plugin is loaded by the person's choice (a flag,
// their config, their Claude Code install), so its servers start without the `.mcp.json` approval.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type PluginRoot, manifestPaths, withPluginRoot } from "./plugins.js";
import { toToolSet } from "./project-mcp.js";
import type { ToolSetConfig } from "./types.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Every `{"<name>": {...}}` server map the plugin declares, each with the file it came from. */
function serverMaps(
  plugin: PluginRoot,
  warnings: string[],
): { file: string; servers: Record<string, unknown> }[] {
  const files = [join(plugin.root, ".mcp.json")];
  const inline = plugin.manifest.mcpServers;
  const maps: { file: string; servers: Record<string, unknown> }[] = [];
  if (isObject(inline))
    maps.push({ file: join(plugin.root, ".claude-plugin", "plugin.json"), servers: inline });
  else files.push(...manifestPaths(plugin, "mcpServers"));
  for (const file of files) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT")
        warnings.push(`${file}: not readable JSON; plugin ${plugin.name}'s servers there are not started`);
      continue;
    }
    const servers =
      isObject(json) && isObject(json.mcpServers) ? json.mcpServers : isObject(json) ? json : {};
    maps.push({ file, servers });
  }
  return maps;
}

/** `${CLAUDE_PLUGIN_ROOT}` replaced in every string of a server entry. */
function rooted(value: unknown, plugin: PluginRoot): unknown {
  if (typeof value === "string") return withPluginRoot(value, plugin);
  if (Array.isArray(value)) return value.map((v) => rooted(v, plugin));
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rooted(v, plugin)]));
  return value;
}

export function pluginToolSets(
  plugins: readonly PluginRoot[],
  taken: readonly string[],
): { toolSets: ToolSetConfig[]; warnings: string[] } {
  const toolSets: ToolSetConfig[] = [];
  const warnings: string[] = [];
  const names = new Set(taken);
  for (const plugin of plugins)
    for (const { file, servers } of serverMaps(plugin, warnings))
      for (const [server, entry] of Object.entries(servers)) {
        const set = `plugin_${plugin.name}_${server}`.toLowerCase().replace(/[^a-z0-9_-]+/g, "-");
        if (!isObject(entry)) {
          warnings.push(`${file}: server ${server}: expected an object; not started`);
          continue;
        }
        if (names.has(set)) {
          warnings.push(`${file}: server ${server}: a tool set is named ${set} already; not started`);
          continue;
        }
        const tool = toToolSet(set, rooted(entry, plugin) as Record<string, unknown>);
        if (typeof tool === "string") {
          warnings.push(`${file}: server ${server} not started: ${tool}`);
          continue;
        }
        names.add(set);
        toolSets.push({ ...tool, env: { ...tool.env, CLAUDE_PLUGIN_ROOT: plugin.root }, fromFile: file });
      }
  return { toolSets, warnings };
}
