// A Claude Code plugin's hooks (R-WF-6): `hooks/hooks.json` (`{"hooks": {"<Event>": [groups]}}`,
// Claude Code's plugins reference) and the manifest's `hooks` (a path to such a file, or the
// object itself). `${CLAUDE_PLUGIN_ROOT}` in a command is the plugin's folder, and the hook's
// process gets CLAUDE_PLUGIN_ROOT in its environment too.
import { join } from "node:path";
import { manifestPaths, type PluginRoot, withPluginRoot } from "../config/plugins.js";
import type { ConfiguredHook } from "./events.js";
import { addClaudeHooks, claudeHooksIn } from "./claude-file.js";

export function pluginHooks(plugins: readonly PluginRoot[], notices: string[]): ConfiguredHook[] {
  const hooks: ConfiguredHook[] = [];
  for (const plugin of plugins) {
    const found: ConfiguredHook[] = [];
    const inline = plugin.manifest.hooks;
    if (typeof inline === "object" && inline !== null && !Array.isArray(inline)) {
      const value = (inline as { hooks?: unknown }).hooks ?? inline;
      if (typeof value === "object" && value !== null)
        addClaudeHooks(
          value as Record<string, unknown>,
          join(plugin.root, ".claude-plugin", "plugin.json"),
          found,
          notices,
        );
    }
    for (const file of [join(plugin.root, "hooks", "hooks.json"), ...manifestPaths(plugin, "hooks")]) {
      const value = claudeHooksIn(file, notices);
      if (value !== undefined) addClaudeHooks(value, file, found, notices);
    }
    for (const hook of found)
      hooks.push({
        ...hook,
        command: withPluginRoot(hook.command, plugin),
        env: { CLAUDE_PLUGIN_ROOT: plugin.root },
      });
  }
  return hooks;
}
