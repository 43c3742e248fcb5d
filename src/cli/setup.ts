// Shared start-up of the front ends: config, model, session (new or resumed). Every user
// mistake found here becomes a UsageError (one line, exit 2) before any turn runs.
import { homedir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../config/errors.js";
import { flagsToConfig, parseThinking } from "../config/flags.js";
import { requireSandbox, SandboxUnavailableError } from "../sandbox/availability.js";
import { SessionNotFoundError } from "../engine/door/errors.js";
import { loadConfig, prepareConfigLoad } from "../config/load.js";
import { discoverLocalServers, localServerNotice, needsLocalServer } from "../config/local-servers.js";
import { resolveModel } from "../config/resolve.js";
import type { Config, ResolvedModel } from "../config/types.js";
import { type OpenedSession, openEngineSession, peekSessionModel } from "../engine/open.js";
import type { SessionHooks } from "../engine/door/requests.js";
import type { CommonOptions } from "./options.js";
import { loadSlashCommands } from "../commands/index.js";
import { UsageError } from "./usage-error.js";
import { configuredHooks } from "../hooks/configured.js";

export function ternHome(): string {
  return process.env.TERN_HOME || join(homedir(), ".tern");
}

export interface Prepared extends OpenedSession {
  config: Config;
  model: ResolvedModel;
  warnings: string[];
}

export async function loadSettings(opts: CommonOptions, home: string, cwd: string) {
  await prepareConfigLoad({ home, cwd, configFile: opts.config });
  try {
    const flags = flagsToConfig({
      model: opts.model,
      allow: opts.allow,
      yes: opts.yes,
      maxModelCalls: opts.maxModelCalls,
      maxToolCalls: opts.maxToolCalls,
      maxDuration: opts.maxDuration,
      maxBudgetUsd: opts.maxBudgetUsd,
      sandbox: opts.sandbox,
      mode: opts.mode,
    });
    const thinking = opts.thinking !== undefined ? parseThinking(opts.thinking) : undefined;
    const loaded = loadConfig({
      home,
      cwd,
      configFile: opts.config,
      flags,
      env: process.env,
      pluginDirs: opts.pluginDir,
    });
    if (thinking) loaded.config.thinking = thinking;
    return loaded;
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * R-CFG-4: with no model and no key, a local server that lists a model is used instead of an
 * error (its first model, said in one notice). Returns the base URL to resolve the model with.
 */
async function localServerIfNeeded(
  config: Config,
  baseUrl: string | undefined,
  warnings: string[],
): Promise<string | undefined> {
  if (!needsLocalServer(config, process.env, baseUrl)) return baseUrl;
  const server = (await discoverLocalServers(process.env)).find((s) => s.models.length > 0);
  if (!server) return baseUrl;
  config.model = `${server.id}/${server.models[0]}`;
  warnings.push(localServerNotice(server));
  return server.baseUrl;
}

/**
 * `beforeOpen` runs once the model is known and before the session is created, so input that
 * depends on the provider (image size limits) is refused without leaving an empty session behind.
 * `slashCommands: false` (a headless prompt that is no slash command) leaves the command table
 * unloaded: the workspace's command files are neither read nor checked.
 */
export async function prepareSession(
  opts: CommonOptions,
  hooks: SessionHooks,
  beforeOpen?: (model: ResolvedModel, config: Config) => void,
  { slashCommands = true }: { slashCommands?: boolean } = {},
): Promise<Prepared> {
  const home = ternHome();
  const cwd = process.cwd();
  const loaded = await loadSettings(opts, home, cwd);
  const config = loaded.config;
  const warnings = [...loaded.warnings];
  try {
    requireSandbox(config.sandbox.mode);
  } catch (err) {
    if (err instanceof SandboxUnavailableError) throw new UsageError(err.message);
    throw err;
  }
  if (opts.continue && opts.resume) throw new UsageError("--continue and --resume cannot be used together");
  // `--resume ""` (an unset shell variable) must not quietly start a new session; without an id
  // only the interactive UI can ask which (it picks before it gets here).
  if (opts.resume === true)
    throw new UsageError(
      "--resume needs a session id here (tern sessions lists them; tern --resume picks one)",
    );
  if (opts.resume !== undefined && opts.resume.trim() === "")
    throw new UsageError("--resume needs a session id (tern sessions lists them)");
  const resume = opts.resume ? { id: opts.resume } : opts.continue ? { latest: true as const } : undefined;

  try {
    // A resumed session keeps the model it was using (a model switch is in its record) unless --model says otherwise.
    if (resume && !opts.model) {
      const recorded = peekSessionModel(home, cwd, resume);
      if (recorded) config.model = recorded;
    }
    const baseUrl = await localServerIfNeeded(config, opts.baseUrl, warnings);
    const { model, notices } = resolveModel(config, process.env, { baseUrl });
    warnings.push(...notices);
    // The workspace's custom commands and skills join the shared table (R-WF-2) before the
    // prompt is read: `tern run "/review a.ts"` expands one.
    const slash = slashCommands ? await loadSlashCommands() : undefined;
    if (slash) warnings.push(...slash.registerWorkflowCommands({ cwd, home, config }));
    beforeOpen?.(model, config);
    const userHooks = configuredHooks(loaded, cwd, process.env);
    warnings.push(...userHooks.notices);
    const opened = await openEngineSession({
      home,
      cwd,
      config,
      model,
      resume,
      extraSystem: opts.system,
      hooks,
      userHooks: userHooks.hooks,
    });
    warnings.push(...opened.warnings);
    if (slash && config.toolSets.length > 0) slash.registerMcpPrompts(opened.session);
    return { ...opened, config, model, warnings };
  } catch (err) {
    // A record that cannot be read (corrupt line, newer format) names its file and line: one line too.
    if (
      err instanceof ConfigError ||
      err instanceof SessionNotFoundError ||
      (err instanceof Error && (err.name === "RecordError" || err.name === "SessionLockedError"))
    )
      throw new UsageError(err.message);
    throw err;
  }
}
