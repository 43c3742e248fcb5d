// The user's own slash commands (R-WF-2) as entries of the shared table: each custom command
// file, `/skill:<name>` per skill. Running one expands its body ($ARGUMENTS, $1…$9), attaches
// its `@path` files (R-WF-4) and sends it as the prompt, its `allowed-tools` allowing those
// calls for that turn. `tern run "/name args"` uses the same expansion (`prompt`).
import { CLAUDE_TOOL_NAMES } from "../config/claude-tools.js";
import type { Config } from "../config/types.js";
import { workspaceFileTrust } from "../config/workspace-trust.js";
import {
  type CustomCommand,
  expandArguments,
  type McpPrompt,
  loadWorkflowFiles,
  type Skill,
  skillPrompt,
} from "../workspace/workflow.js";
import { type CommandHost, errorText, type SlashCommand, type WorkflowPrompt } from "./host.js";
import { buildPromptContent, InputError } from "./prompt-input.js";
import { commandModel } from "./command-model.js";
import { parseCommandLine, setMcpPromptCommands, setWorkflowCommands } from "./table.js";
import type { Session } from "../engine/session.js";

/**
 * One `allowed-tools` entry as a tern rule (R-TOOL-2): `Bash(git add:*)` → `bash(git add*)`
 * (Claude's `:*` is "this prefix"), `Read` → `read_file`, `mcp__set__tool` → `set__tool`.
 */
export function toTernRule(entry: string): string {
  const m = /^([\w.*-]+)(?:\((.*)\))?$/s.exec(entry.trim());
  if (!m) return entry.trim();
  // Claude Code's names from the one table (config/claude-tools.ts).
  const tool = CLAUDE_TOOL_NAMES[m[1]]?.[0] ?? m[1].replace(/^mcp__/, "");
  if (m[2] === undefined) return tool;
  return `${tool}(${m[2].replace(/:\*$/, "*")})`;
}

/** Sends an expanded command as this turn's prompt, with its attachments and turn rules. */
export async function runWorkflowPrompt(host: CommandHost, prompt: WorkflowPrompt): Promise<void> {
  let content: ReturnType<typeof buildPromptContent>;
  try {
    content = buildPromptContent(prompt.text, host.cwd, [], host.session.status().model.endpoint.api, {
      textLimit: host.config.toolOutputLimit,
      deny: host.config.permissions.deny,
    });
  } catch (err) {
    if (err instanceof InputError) return host.error(err.message);
    throw err;
  }
  const model = commandModel(host.session, host.config, host.baseUrl, prompt.model, (text) =>
    host.print(`notice: ${text}`),
  );
  await host.work(
    () => host.session.send({ type: "prompt", content, allow: prompt.allow, shell: prompt.shell, model }),
    "thinking",
  );
}

function entry(
  name: string,
  description: string,
  hint: string | undefined,
  prompt: (rest: string) => WorkflowPrompt,
  source: string,
): SlashCommand {
  return {
    name,
    ...(hint ? { args: hint } : {}),
    description,
    timing: "idle",
    source,
    prompt,
    run: (host, _args, rest) => runWorkflowPrompt(host, prompt(rest)),
  };
}

/** Where the workspace is and whom it trusts: a project file's allowed-tools grant only when trusted. */
interface TrustPlace {
  cwd: string;
  trustedWorkspaces: readonly string[];
  notices: string[];
}

/**
 * A command's or skill's `allowed-tools` as this turn's allow rules: none for a file an untrusted
 * workspace brought (§10: its `!`cmd`` lines and the model's calls then ask like any other), with
 * one notice naming the file.
 */
function grantedRules(
  kind: "command" | "skill",
  file: { path: string; scope: "project" | "user"; allowedTools?: string[] },
  place: TrustPlace,
): string[] {
  if (!file.allowedTools?.length) return [];
  const trust = workspaceFileTrust({ kind, file: file.path, scope: file.scope, ...place });
  if (trust.notice) place.notices.push(trust.notice);
  return trust.trusted ? file.allowedTools.map(toTernRule) : [];
}

function commandEntry(c: CustomCommand, place: TrustPlace): SlashCommand {
  const label = c.scope === "project" ? "project" : "user";
  const allow = grantedRules("command", c, place);
  return entry(
    c.name,
    `${c.description} (${label})`,
    c.argumentHint,
    (rest) => {
      // A Gemini CLI command expands itself ({{args}}, !{…}, @{…}: R-WF-7).
      const text = c.expand ? c.expand(rest) : expandArguments(c.body, rest);
      return {
        text,
        allow,
        model: c.model,
        ...((c.expand ? text : c.body).includes("!`") ? { shell: true } : {}),
      };
    },
    c.path,
  );
}

function skillEntry(s: Skill, place: TrustPlace): SlashCommand {
  const allow = grantedRules("skill", s, place);
  return entry(
    `/skill:${s.name}`,
    s.description ? `${s.description} (skill)` : "skill",
    s.argumentHint,
    (rest) => ({ text: skillPrompt(s, rest), allow, model: s.model }),
    s.path,
  );
}

/** The workspace's custom commands and skills as table entries, with notices about bad files. */
export function workflowCommands(opts: {
  cwd: string;
  home: string;
  config: Pick<Config, "compat" | "trustedWorkspaces" | "pluginRoots">;
  env?: NodeJS.ProcessEnv;
}): { commands: SlashCommand[]; warnings: string[] } {
  const files = loadWorkflowFiles(opts);
  const place: TrustPlace = {
    cwd: opts.cwd,
    trustedWorkspaces: opts.config.trustedWorkspaces,
    notices: [],
  };
  const skills = files.skills.filter((s) => /^[\w.:-]+$/.test(s.name));
  const names = new Set(files.commands.map((c) => c.name));
  const commands = [
    ...files.commands.map((c) => commandEntry(c, place)),
    ...skills.map((s) => skillEntry(s, place)),
    // A plugin's skill also answers to `/<plugin>:<skill>`, as in Claude Code (R-WF-6).
    ...skills
      .filter((s) => s.name.includes(":") && !names.has(`/${s.name}`))
      .map((s) => ({ ...skillEntry(s, place), name: `/${s.name}` })),
  ];
  return { commands, warnings: [...files.warnings, ...place.notices] };
}

/** Each MCP prompt as `/mcp__<set>__<prompt> <args by position>`: its text is the prompt. */
export function mcpPromptCommands(prompts: readonly McpPrompt[]): SlashCommand[] {
  return prompts.map((p) => ({
    name: mcpPromptName(p),
    ...(p.arguments.length
      ? { args: p.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ") }
      : {}),
    description: `${p.description || "MCP prompt"} (MCP ${p.set})`,
    timing: "idle",
    source: `MCP server ${p.set}`,
    run: async (host, args) => {
      let text: string;
      try {
        text = await host.session.mcpPrompt(p, args);
      } catch (err) {
        return host.error(errorText(err));
      }
      await runWorkflowPrompt(host, { text, allow: [] });
    },
  }));
}

export const mcpPromptName = (p: McpPrompt) => `/mcp__${p.set}__${p.name}`;

/** `/mcp__<set>__<prompt> args` as the prompt text, once the servers have started (`tern run`). */
export async function expandMcpPrompt(session: Session, line: string): Promise<string> {
  const { name, args } = parseCommandLine(line);
  const prompts = await session.mcpPrompts();
  const prompt = prompts.find((p) => mcpPromptName(p) === name);
  if (!prompt)
    throw new Error(
      `${name}: no such MCP prompt${prompts.length ? ` (the servers offer ${prompts.map(mcpPromptName).join(", ")})` : ""}`,
    );
  return session.mcpPrompt(prompt, args);
}

/** Once the session's servers have started, their prompts join the table (in the background). */
export function registerMcpPrompts(session: Session): void {
  session.mcpPrompts().then(
    (prompts) => setMcpPromptCommands(mcpPromptCommands(prompts)),
    () => {},
  );
}

/** Finds the workspace's commands and skills and puts them in the shared table; the notices. */
export function registerWorkflowCommands(opts: Parameters<typeof workflowCommands>[0]): string[] {
  const { commands, warnings } = workflowCommands(opts);
  return [...warnings, ...setWorkflowCommands(commands)];
}
