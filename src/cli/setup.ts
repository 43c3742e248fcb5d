// Shared start-up of the terminal front ends: their flags become the options of the engine's one
// opener (`engine/open.ts`). Every user mistake found here becomes a UsageError (one line, exit 2)
// before any turn runs.
import { ConfigError } from "../config/errors.js";
import { type ConfigFlags, flagsToConfig, parseThinking } from "../config/flags.js";
import { SandboxUnavailableError } from "../sandbox/availability.js";
import { SessionNotFoundError } from "../engine/door/errors.js";
import { loadConfig, prepareConfigLoad } from "../config/load.js";
import type { Config, ResolvedModel } from "../config/types.js";
import { type OpenedSession, openConfiguredSession } from "../engine/open.js";
import type { SessionHooks } from "../engine/door/requests.js";
import type { CommonOptions } from "./options.js";
import { loadSlashCommands } from "../commands/index.js";
import { UsageError } from "./usage-error.js";
import { ternHomeOf } from "../config/tern-home.js";

export function ternHome(): string {
  return ternHomeOf();
}

export interface Prepared extends OpenedSession {
  config: Config;
  model: ResolvedModel;
  warnings: string[];
}

/** The command-line options that become a config layer (flags.ts), for both readers below. */
function configFlags(opts: CommonOptions): ConfigFlags {
  const { model, allow, yes, maxModelCalls, maxToolCalls, maxDuration, maxBudgetUsd, sandbox, mode } = opts;
  return { model, allow, yes, maxModelCalls, maxToolCalls, maxDuration, maxBudgetUsd, sandbox, mode };
}

export async function loadSettings(opts: CommonOptions, home: string, cwd: string) {
  await prepareConfigLoad({ home, cwd, configFile: opts.config });
  try {
    const flags = flagsToConfig(configFlags(opts));
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
 * The terminal front ends' opener: their flags become the engine's opener's options (the one
 * every front end opens through, `engine/open.ts`).
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
  if (opts.continue && opts.resume) throw new UsageError("--continue and --resume cannot be used together");
  // `--resume ""` (an unset shell variable) must not quietly start a new session; without an id
  // only the interactive UI can ask which (it picks before it gets here).
  if (opts.resume === true)
    throw new UsageError(
      "--resume needs a session id here (tern sessions lists them; tern --resume picks one)",
    );
  if (opts.resume !== undefined && opts.resume.trim() === "")
    throw new UsageError("--resume needs a session id (tern sessions lists them)");
  // The workspace's custom commands and skills join the shared table (R-WF-2) before the
  // prompt is read: `tern run "/review a.ts"` expands one.
  const slash = slashCommands ? await loadSlashCommands() : undefined;
  try {
    const opened = await openConfiguredSession({
      cwd,
      home,
      resume: opts.resume || undefined,
      continueLatest: opts.continue === true,
      system: opts.system,
      baseUrl: opts.baseUrl,
      configFile: opts.config,
      pluginDirs: opts.pluginDir,
      flags: configFlags(opts),
      thinking: opts.thinking,
      localServer: true,
      // The terminal redacts what it writes itself (redacted-output.ts).
      redactEvents: false,
      hooks,
      beforeOpen: (model, config) => {
        const notices = slash ? slash.registerWorkflowCommands({ cwd, home, config }) : [];
        beforeOpen?.(model, config);
        return notices;
      },
    });
    if (slash && opened.config.toolSets.length > 0) slash.registerMcpPrompts(opened.session);
    return opened;
  } catch (err) {
    // A record that cannot be read (corrupt line, newer format) names its file and line: one line too.
    if (
      err instanceof ConfigError ||
      err instanceof SessionNotFoundError ||
      err instanceof SandboxUnavailableError ||
      (err instanceof Error && (err.name === "RecordError" || err.name === "SessionLockedError"))
    )
      throw new UsageError(err.message);
    throw err;
  }
}
