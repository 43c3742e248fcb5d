// Opening a session the way a program embedding tern does (the library API and `tern acp`):
// the user and workspace config of `cwd` are read, the model resolved, and the session opened
// through the same engine door the terminal front ends use, so the record and ledger are the same.
import { homedir } from "node:os";
import { join } from "node:path";
import { flagsToConfig } from "../config/flags.js";
import { loadConfig } from "../config/load.js";
import { resolveModel } from "../config/resolve.js";
import type { Config, PermissionMode, ResolvedModel, ToolSetConfig } from "../config/types.js";
import type { SessionHooks } from "./core.js";
import { requireSandbox } from "./sandbox.js";
import { type OpenedSession, openSession as openEngineSession, peekSessionModel } from "./open.js";

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
  /** Extra MCP tool sets (stdio servers), merged after the configured ones. */
  toolSets?: Array<Pick<ToolSetConfig, "name" | "command"> & Partial<ToolSetConfig>>;
  /**
   * How calls that need approval are decided. Default: denied, with a result saying so (as
   * `tern run` without `--yes`).
   */
  hooks?: SessionHooks;
  /** Environment for API keys and base URLs (default: `process.env`). */
  env?: NodeJS.ProcessEnv;
}

export interface OpenResult extends OpenedSession {
  config: Config;
  model: ResolvedModel;
}

const DENY_ALL: SessionHooks = {
  approve: async (calls) => new Map(calls.map((c) => [c.id, "denied" as const])),
  denialMessage:
    "denied: this session was opened without an approval handler, so calls that need approval are not run",
};

/** Opens (or resumes) a tern session; errors in the config or an unknown session throw with one clear message. */
export async function openConfiguredSession(opts: OpenOptions = {}): Promise<OpenResult> {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const home = opts.home ?? (env.TERN_HOME || join(homedir(), ".tern"));
  const loaded = loadConfig({
    home,
    cwd,
    flags: flagsToConfig({ model: opts.model, allow: opts.allow }),
    env,
  });
  const config = loaded.config;
  // As in the terminal: a sandbox the config asks for but the machine lacks is an error, not a silent fallback.
  requireSandbox(config);
  if (opts.mode) config.permissions.mode = opts.mode;
  for (const set of opts.toolSets ?? [])
    config.toolSets.push({ args: [], env: {}, timeoutSeconds: 120, ...set });
  const resume = opts.resume ? { id: opts.resume } : undefined;
  // A resumed session keeps the model it was using unless a model is named.
  if (resume && !opts.model) {
    const recorded = peekSessionModel(home, cwd, resume);
    if (recorded) config.model = recorded;
  }
  const { model, notices } = resolveModel(config, env, { baseUrl: opts.baseUrl });
  const opened = await openEngineSession({
    home,
    cwd,
    config,
    model,
    resume,
    extraSystem: opts.system,
    hooks: opts.hooks ?? DENY_ALL,
  });
  return { ...opened, warnings: [...loaded.warnings, ...notices, ...opened.warnings], config, model };
}
