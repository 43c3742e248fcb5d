// `tern config check`: validate the merged configuration and show where each value came from.
import { formatConfigCheck } from "../config/check.js";
import { claudeCompatLines } from "../config/claude-settings-report.js";
import { discoverLocalServers, formatLocalServers, probeTargets } from "../config/local-servers.js";
import { sandboxAvailability } from "../sandbox/availability.js";
import { configuredHooks } from "../hooks/configured.js";
import { loadSettings, ternHome } from "./setup.js";
import { workflowSources } from "../workspace/workflow.js";
import { workflowLines } from "../commands/workflow-report.js";
import { agentsForCheck } from "../workspace/agents-check.js";
import { programLines } from "../workspace/programs-report.js";
import { languageServerLines } from "../lsp/check.js";

export async function configCheckCommand(opts: { config?: string; model?: string }): Promise<number> {
  const loaded = await loadSettings({ config: opts.config, model: opts.model }, ternHome(), process.cwd());
  const servers = await discoverLocalServers(process.env);
  const local = formatLocalServers(servers, probeTargets(process.env));
  process.stdout.write(`${formatConfigCheck(loaded, process.env)}${local.join("\n")}\n`);
  process.stdout.write(`sandbox: ${sandboxAvailability()}\n`);
  process.stdout.write(`${programLines(process.cwd(), loaded.config.trustedWorkspaces).join("\n")}\n`);
  // R-WF-5: Claude Code's permission rules, each with what tern made of it and its file.
  for (const line of claudeCompatLines(loaded, process.cwd(), process.env.HOME))
    process.stdout.write(`${line}\n`);
  const { hooks, notices } = configuredHooks(loaded, process.cwd(), process.env);
  for (const hook of hooks)
    process.stdout.write(
      `hook: ${hook.event} ${JSON.stringify(hook.matcher || "*")} ${hook.command}  (${hook.source})\n`,
    );
  for (const notice of notices) process.stdout.write(`hook: ${notice}\n`);
  const workflow = workflowSources({ cwd: process.cwd(), home: ternHome(), config: loaded.config });
  process.stdout.write(`${workflowLines(workflow.sources, workflow.warnings).join("\n")}\n`);
  // R-AGENT-2: each agent with its file, and one line per problem (a tool or model that is not there).
  const agents = agentsForCheck({
    cwd: process.cwd(),
    home: ternHome(),
    config: loaded.config,
    env: process.env,
  });
  for (const agent of agents.agents) {
    process.stdout.write(`agent: ${agent.name}  (${agent.path ?? "built in"})\n`);
    for (const problem of agent.problems) process.stdout.write(`agent problem: ${problem}\n`);
    for (const note of agent.dropped) process.stdout.write(`agent note: ${note}\n`);
  }
  for (const warning of agents.warnings) process.stdout.write(`agent problem: ${warning}\n`);
  // R-LSP-4: the language servers found, and those missing.
  for (const line of languageServerLines(loaded.config, process.cwd(), process.env))
    process.stdout.write(`${line}\n`);
  return 0;
}
