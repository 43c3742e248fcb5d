// A session's tools and what judges them: the built-in registry with the agents and edit tool
// this model is offered, the shell sandbox, the approval policy and the executor.
import { join } from "node:path";
import { findAgents } from "../agents/files.js";
import { editToolFor } from "../config/edit-tool.js";
import { IMAGE_LIMIT_BYTES } from "../config/image-limits.js";
import type { Config, ResolvedModel } from "../config/types.js";
import { createBuiltinRegistry } from "../tools/builtin-registry.js";
import { offerEditTool } from "../tools/edit-tool-offer.js";
import { ToolExecutor } from "../tools/executor.js";
import { ApprovalPolicy } from "../tools/policy/approval.js";
import type { EventBus } from "./bus.js";
import type { SessionHooks } from "./core.js";
import { planSandboxAvailable, shellSandbox } from "./sandbox.js";
import type { ChildOptions } from "./subagents/child-options.js";
import { offerTools } from "./subagents/offered-tools.js";

export interface ToolsOpening {
  home: string;
  cwd: string;
  config: Config;
  model: ResolvedModel;
  hooks: SessionHooks;
  env: NodeJS.ProcessEnv;
  child?: ChildOptions;
  /** The session's folder (full tool outputs are saved under it). */
  dir: string;
  bus: EventBus;
}

export function openTools(opts: ToolsOpening, warnings: string[]) {
  const { home, cwd, config, model, env, bus, dir } = opts;
  const registry = createBuiltinRegistry();
  const { trustedWorkspaces } = config;
  const agents = findAgents({
    cwd,
    home,
    userHome: env.HOME,
    compat: config.compat,
    trustedWorkspaces,
    plugins: config.pluginRoots,
  });
  if (!opts.child) warnings.push(...agents.warnings);
  offerTools(registry, agents.agents, opts.child);
  offerEditTool(registry, editToolFor(model.id, model.info));
  // With language servers off the tool could only refuse: its bytes leave every request.
  if (config.lsp === false)
    registry.withhold("lsp", "No language servers in this session (lsp is off in the configuration).");
  let policy: ApprovalPolicy | undefined;
  const sandbox = shellSandbox(
    config,
    cwd,
    home,
    opts.hooks,
    () => policy,
    (text) => bus.publishOrHold({ type: "notice", text }),
  );
  policy = new ApprovalPolicy({
    mode: config.permissions.mode,
    allow: config.permissions.allow,
    deny: config.permissions.deny,
    ask: config.permissions.ask,
    cwd,
    sandboxedShell: sandbox !== undefined,
    ternHome: home,
    planSandbox: planSandboxAvailable,
  });
  const executor = new ToolExecutor(registry, policy, {
    parallel: config.parallelTools,
    limits: {
      maxChars: config.toolOutputLimit,
      maxImageBytes: IMAGE_LIMIT_BYTES[model.endpoint.api],
      fullOutputDir: join(dir, "tool-output"),
    },
  });
  return { registry, agents, sandbox, policy, executor };
}
