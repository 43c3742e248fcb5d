// Loads and merges the configuration layers (SPEC §2) and applies workspace trust (R-CFG-2).
// Reads files only; nothing is ever written.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { defaultConfig } from "./defaults.js";
import { claudeStatusLine } from "./claude-status-line.js";
import { ConfigError } from "./errors.js";
import { ConfigMerger } from "./merge.js";
import { formatPath } from "./key-path.js";
import { configFileParser as parser } from "./file/index.js";
import { loadsAtOnce } from "./on-first-use.js";
import { plainLayer } from "./plain-layer.js";
import { type ProjectServers, projectMcpServers } from "./project-mcp.js";
import type { ConfigLayer } from "./schema.js";
import type { Config } from "./types.js";
import { restrictUntrusted } from "./untrusted.js";
import { workspaceTrusted as isTrusted } from "./workspace-trust.js";
import { unknownToolSetWarnings } from "./rule-sets.js";
import { applyClaudePermissions } from "./claude-permissions-apply.js";
import { findPlugins } from "./plugins.js";
import { pluginToolSets } from "./plugin-servers.js";
import { readClaudePermissions, type ClaudeSettingsReport } from "./claude-permissions.js";

export interface LoadConfigOptions {
  /** $TERN_HOME */
  home: string;
  /** The workspace. */
  cwd: string;
  /** `--config <file>`, relative to cwd. */
  configFile?: string;
  /** Already mapped from CLI flags (see flagsToConfig); `permissions.allow` here appends. */
  flags: ConfigLayer | Partial<Config>;
  env: NodeJS.ProcessEnv;
  /** `--plugin-dir DIR`, repeatable (R-WF-6). */
  pluginDirs?: string[];
}

export interface LoadedConfig {
  config: Config;
  /** The workspace's `.mcp.json` servers and whether each was started (R-WF-3). */
  projectServers?: ProjectServers;
  /** Flattened key path → "default" | file label | flag name (e.g. "--model"). */
  sources: Record<string, string>;
  warnings: string[];
  /** R-WF-5: each Claude Code settings file's permissions, with what was taken and what was not. */
  claudeSettings?: ClaudeSettingsReport[];
  /** Whether the workspace is in the user's trustedWorkspaces (its own hooks and servers may run). */
  workspaceTrusted?: boolean;
}

export const WORKSPACE_CONFIG_LABEL = ".tern/config.json";

/** Which flag sets which key, so provenance can name it. */
const FLAG_NAMES: Record<string, string> = {
  model: "--model",
  "permissions.mode": "--yes",
  "permissions.allow": "--allow",
  "executionBudget.maximumModelCalls": "--max-model-calls",
  "executionBudget.maximumToolCalls": "--max-tool-calls",
  "executionBudget.maximumDurationSeconds": "--max-duration",
  "executionBudget.maximumCostUsd": "--max-budget-usd",
};

// The parser and schema of config files (file/, with zod) load only where a file exists:
// `prepareConfigLoad` before `loadConfig` (from the sources, at once).
if (loadsAtOnce) await parser.load();

const userConfigPath = (home: string) => join(home, "config.json");
const workspaceConfigPath = (cwd: string) => join(cwd, ".tern", "config.json");

// What `prepareConfigLoad` read, taken by `loadConfig` once: the file it judged plain is the one
// that is parsed, even if it changes in between (its plain layer, when it has one, kept too).
const preparedTexts = new Map<string, { text: string; plain: ConfigLayer | undefined }>();

/**
 * Makes `loadConfig` ready for these options: loads the file parser when a config file may be
 * read that sets more than plain keys (plain-layer.ts), or that cannot be read (its error line).
 */
export async function prepareConfigLoad(
  opts: Pick<LoadConfigOptions, "home" | "cwd" | "configFile">,
): Promise<void> {
  preparedTexts.clear();
  const files = [userConfigPath(opts.home), workspaceConfigPath(opts.cwd)].filter((f) => existsSync(f));
  if (opts.configFile !== undefined) files.push(resolve(opts.cwd, opts.configFile));
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue; // readLayer names the failure; reading needs no parser
    }
    const plain = plainLayer(text);
    preparedTexts.set(file, { text, plain });
    if (!plain) await parser.load();
  }
}

function readLayer(path: string, label: string, required: boolean): ConfigLayer | null {
  const prepared = preparedTexts.get(path);
  preparedTexts.delete(path);
  if (prepared) return prepared.plain ?? parser.get().parseConfigText(prepared.text, label);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !required) return null;
    throw new ConfigError(`${label}: ${code === "ENOENT" ? "file not found" : `cannot read (${code})`}`);
  }
  return plainLayer(text) ?? parser.get().parseConfigText(text, label);
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export function loadConfig(opts: LoadConfigOptions): LoadedConfig {
  const warnings: string[] = [];
  const merger = new ConfigMerger(defaultConfig());

  const userLabel = userConfigPath(opts.home);
  const user = readLayer(userLabel, userLabel, false);
  // Trust in one place (§10): the same check every file the workspace brings asks.
  const workspaceTrusted = isTrusted(opts.cwd, user?.trustedWorkspaces ?? []);

  const dropTrustList = (layer: ConfigLayer, label: string): ConfigLayer => {
    if (layer.trustedWorkspaces === undefined) return layer;
    warnings.push(`${label}: trustedWorkspaces ignored: only ${userLabel} may set it`);
    const { trustedWorkspaces: _, ...rest } = layer;
    return rest;
  };

  if (user) merger.apply(user, () => userLabel);

  const workspace = readLayer(workspaceConfigPath(opts.cwd), WORKSPACE_CONFIG_LABEL, false);
  if (workspace) {
    let layer = dropTrustList(workspace, WORKSPACE_CONFIG_LABEL);
    if (!workspaceTrusted) layer = restrictUntrusted(layer, WORKSPACE_CONFIG_LABEL, merger.config, warnings);
    merger.apply(layer, () => WORKSPACE_CONFIG_LABEL);
  }

  if (opts.configFile !== undefined) {
    const explicit = readLayer(resolve(opts.cwd, opts.configFile), opts.configFile, true)!;
    merger.apply(dropTrustList(explicit, opts.configFile), () => opts.configFile!);
  }

  // Not run through the schema: flagsToConfig checked every value it put there, each error
  // naming its flag, and the schema would only say it again (at the cost of building it).
  const flags = opts.flags as ConfigLayer;
  merger.apply(dropTrustList(flags, "command-line flags"), (key) => FLAG_NAMES[key] ?? "--flag", {
    appendAllow: true,
  });

  const config = merger.config;
  const sources = merger.sources;
  for (const [id, provider] of Object.entries(config.providers)) {
    const where = (key: string) => sources.get(formatPath(["providers", id, key]));
    if (!provider.baseUrl) {
      const label = where("api") ?? where("apiKeyEnv") ?? where("headers") ?? "config";
      throw new ConfigError(
        `${label}: ${formatPath(["providers", id, "baseUrl"])}: required for a provider that is not built in`,
      );
    }
    if (!provider.api) {
      provider.api = "openai-chat";
      sources.set(formatPath(["providers", id, "api"]), "default");
    }
    if (!provider.headers) {
      provider.headers = {};
      sources.set(formatPath(["providers", id, "headers"]), "default");
    }
  }
  // R-WF-3: Claude Code's project servers, only where the workspace is trusted or they were approved.
  const projectServers = config.compat.claude
    ? projectMcpServers({
        cwd: opts.cwd,
        home: opts.home,
        canonicalCwd: canonical(opts.cwd),
        trusted: workspaceTrusted,
        taken: config.toolSets.map((s) => s.name),
      })
    : { servers: [], toolSets: [], warnings: [] };
  config.toolSets.push(...projectServers.toolSets);
  warnings.push(...projectServers.warnings);
  warnings.push(...unknownToolSetWarnings(config.permissions, config.toolSets));
  // R-UI-23: Claude Code's statusLine when tern's config sets none.
  const claudeLine =
    config.compat.claude && !config.statusLine
      ? claudeStatusLine(opts.env, opts.cwd, user?.trustedWorkspaces ?? [], warnings)
      : undefined;
  if (claudeLine) {
    config.statusLine = claudeLine.statusLine;
    for (const key of Object.keys(claudeLine.statusLine)) sources.set(`statusLine.${key}`, claudeLine.file);
  }
  // R-WF-5: Claude Code's permission rules; the trust decision above decides what a project's may loosen.
  const claudeSettings = config.compat.claude
    ? applyClaudePermissions(
        config,
        sources,
        readClaudePermissions({ cwd: opts.cwd, home: opts.env.HOME, trusted: workspaceTrusted }),
        warnings,
      )
    : undefined;
  // R-WF-6: Claude Code plugins, and their MCP servers as tool sets.
  const plugins = findPlugins({
    cwd: opts.cwd,
    userHome: opts.env.HOME,
    flagDirs: opts.pluginDirs ?? [],
    configDirs: (config.plugins ?? []).map((dir) => ({ dir, source: sources.get("plugins") ?? "config" })),
    claude: config.compat.claude,
    trusted: workspaceTrusted,
  });
  warnings.push(...plugins.warnings);
  config.pluginRoots = plugins.plugins;
  const pluginSets = pluginToolSets(
    plugins.plugins,
    config.toolSets.map((s) => s.name),
  );
  config.toolSets.push(...pluginSets.toolSets);
  warnings.push(...pluginSets.warnings);
  return {
    claudeSettings,
    config,
    sources: Object.fromEntries([...sources].sort(([a], [b]) => (a < b ? -1 : 1))),
    warnings,
    workspaceTrusted,
    projectServers,
  };
}
