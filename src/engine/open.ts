// The one opener of every front end (the library, `tern acp`, the TUI, `--plain`, `tern run`): the
// user and workspace config of `cwd` are read with what the flags say, the model resolved, and the
// session opened through `open-session.ts`, which attaches telemetry, hooks, jobs and checkpoints
// alike for all, so the record and ledger are the same whoever opened it.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError } from "../config/errors.js";
import { type ConfigFlags, flagsToConfig, parseThinking } from "../config/flags.js";
import { discoverLocalServers, localServerNotice, needsLocalServer } from "../config/local-servers.js";
import { loadConfig, prepareConfigLoad } from "../config/load.js";
import { resolveModel } from "../config/resolve.js";
import { registerSecretsFromEnv } from "../config/secrets.js";
import type { Config, PermissionMode, ResolvedModel, ToolSetConfig } from "../config/types.js";
import type { SessionHooks } from "./core.js";
import { requireSandbox } from "../sandbox/availability.js";
import { type OpenedSession, openSession as openEngineSession, peekSessionModel } from "./open-session.js";

export type { OpenedSession } from "./open-session.js";
import { configuredHooks } from "../hooks/configured.js";
import { ternHomeOf } from "../config/tern-home.js";

export interface OpenOptions {
  /** The workspace (default: the process's current folder). */
  cwd?: string;
  /** Where sessions, ledger and config live (default: `$TERN_HOME`, else `~/.tern`). */
  home?: string;
  /** `provider/model`; default: the config's model. */
  model?: string;
  /** An OpenAI-compatible base URL when the provider is not configured (as `--base-url`). */
  baseUrl?: string;
  /** Resume this session (by id or unique prefix) instead of starting a new one. */
  resume?: string;
  /** Extra system text (as `--system`). */
  system?: string;
  /** Permission mode for this session (default: the config's). */
  mode?: PermissionMode;
  /** Extra allow rules such as `bash(git status*)` (as `--allow`). */
  allow?: string[];
  /**
   * Extra MCP tool sets (stdio `command` or Streamable HTTP `url`), merged after the configured
   * ones. A name is made a valid tool-set name (lower case, `[a-z0-9_-]`) and unique (`-2`, `-3`…
   * after one already taken), since it prefixes the tool names and the rules.
   */
  toolSets?: Array<Pick<ToolSetConfig, "name" | "command"> & Partial<ToolSetConfig>>;
  /**
   * How calls that need approval are decided. Default: denied, with a result saying so (as
   * `tern run` without `--yes`).
   */
  hooks?: SessionHooks;
  /** Environment for API keys, base URLs and tool sets' `${VAR}` (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
  // What the terminal's flags say (cli/setup.ts passes them; a program may too).
  /** `--config <file>`: one more config file, over the workspace's. */
  configFile?: string;
  /** `--plugin-dir`: plugin folders for this session. */
  pluginDirs?: string[];
  /** The other config flags (`--yes`, limits, `--sandbox`, `--mode`); `model` and `allow` above add to them. */
  flags?: ConfigFlags;
  /** `--thinking`: the thinking level for this session. */
  thinking?: string;
  /** `--continue`: resume the workspace's newest session (when `resume` names none). */
  continueLatest?: boolean;
  /** R-CFG-4: with no model and no key, use a local server that lists a model (said in a notice). */
  localServer?: boolean;
  /** Events pass the key redaction before any listener sees them (default true; the terminal redacts its output itself). */
  redactEvents?: boolean;
  /**
   * Runs once the model is known and before the session is created, so input that depends on the
   * provider is refused without leaving an empty session behind; what it returns are notices.
   */
  beforeOpen?: (model: ResolvedModel, config: Config) => string[] | undefined;
}

export interface OpenResult extends OpenedSession {
  config: Config;
  /** The TERN_HOME the session lives under. */
  home: string;
  model: ResolvedModel;
}

const DENY_ALL: SessionHooks = {
  approve: async (calls) => new Map(calls.map((c) => [c.id, "denied" as const])),
  denialMessage:
    "denied: this session was opened without an approval handler, so calls that need approval are not run",
};

/**
 * A tool-set name as config requires it (`[a-z0-9_-]+`), not taken yet. Names come from an
 * editor's settings ("My Files") or a program; two sets of one name would share tool names and
 * rules, so a later one is renamed rather than refused.
 */
export function toolSetName(wanted: string, taken: readonly string[]): string {
  const base =
    wanted
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "mcp";
  let name = base;
  for (let n = 2; taken.includes(name); n++) name = `${base}-${n}`;
  return name;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Opens (or resumes) a tern session; errors in the config or an unknown session throw with one clear message. */
export async function openConfiguredSession(opts: OpenOptions = {}): Promise<OpenResult> {
  const env = opts.env ?? process.env;
  const cwd = resolve(opts.cwd ?? process.cwd());
  // A session in a folder that does not exist would record a workspace no tool can work in.
  if (!isFolder(cwd)) throw new ConfigError(`cwd: '${cwd}' is not an existing folder`);
  const home = opts.home ?? ternHomeOf(env);
  const loaded = await loadWithFlags(opts, home, cwd, env);
  const config = loaded.config;
  const warnings = [...loaded.warnings];
  // The keys this session may use come from `env`, which need not be process.env: their values
  // are redacted from the record, the events and everything else tern writes (R-CFG-3).
  registerSecretsFromEnv(env, config);
  // As in the terminal: a sandbox the config asks for but the machine lacks is an error, not a silent fallback.
  requireSandbox(config.sandbox.mode);
  if (opts.mode) config.permissions.mode = opts.mode;
  for (const set of opts.toolSets ?? []) {
    const name = toolSetName(
      set.name,
      config.toolSets.map((s) => s.name),
    );
    config.toolSets.push({ args: [], env: {}, timeoutSeconds: 120, ...set, name });
  }
  const resume = opts.resume
    ? { id: opts.resume }
    : opts.continueLatest
      ? { latest: true as const }
      : undefined;
  // A resumed session keeps the model it was using (a switch is in its record) unless a model is named.
  if (resume && !(opts.model ?? opts.flags?.model)) {
    const recorded = peekSessionModel(home, cwd, resume);
    if (recorded) config.model = recorded;
  }
  const baseUrl = opts.localServer
    ? await localServerIfNeeded(config, opts.baseUrl, env, warnings)
    : opts.baseUrl;
  const { model, notices } = resolveModel(config, env, { baseUrl });
  warnings.push(...notices, ...(opts.beforeOpen?.(model, config) ?? []));
  const userHooks = configuredHooks(loaded, cwd, env);
  warnings.push(...userHooks.notices);
  const opened = await openEngineSession({
    home,
    cwd,
    config,
    model,
    resume,
    extraSystem: opts.system,
    hooks: opts.hooks ?? DENY_ALL,
    userHooks: userHooks.hooks,
    redactEvents: opts.redactEvents ?? true,
    // `env` may hold only the keys a program passes: the rest of `${VAR}` still comes from tern's own.
    env: opts.env ? { ...process.env, ...opts.env } : undefined,
  });
  return { ...opened, warnings: [...warnings, ...opened.warnings], config, model, home };
}

/** The user's and the workspace's config with what the flags say over them. */
async function loadWithFlags(opts: OpenOptions, home: string, cwd: string, env: NodeJS.ProcessEnv) {
  await prepareConfigLoad({ home, cwd, configFile: opts.configFile });
  const flags = flagsToConfig({
    ...opts.flags,
    ...(opts.model !== undefined ? { model: opts.model } : {}),
    ...(opts.allow !== undefined ? { allow: [...(opts.flags?.allow ?? []), ...opts.allow] } : {}),
  });
  const thinking = opts.thinking !== undefined ? parseThinking(opts.thinking) : undefined;
  const loaded = loadConfig({
    home,
    cwd,
    configFile: opts.configFile,
    flags,
    env,
    pluginDirs: opts.pluginDirs,
  });
  if (thinking) loaded.config.thinking = thinking;
  return loaded;
}

/**
 * R-CFG-4: with no model and no key, a local server that lists a model is used instead of an
 * error (its first model, said in one notice). Returns the base URL to resolve the model with.
 */
async function localServerIfNeeded(
  config: Config,
  baseUrl: string | undefined,
  env: NodeJS.ProcessEnv,
  warnings: string[],
): Promise<string | undefined> {
  if (!needsLocalServer(config, env, baseUrl)) return baseUrl;
  const server = (await discoverLocalServers(env)).find((s) => s.models.length > 0);
  if (!server) return baseUrl;
  config.model = `${server.id}/${server.models[0]}`;
  warnings.push(localServerNotice(server));
  return server.baseUrl;
}
