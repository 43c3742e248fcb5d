// The user's own slash commands (R-WF-2) as entries of the shared table: each custom command
// file, `/skill:<name>` per skill. Running one expands its body ($ARGUMENTS, $1…$9), attaches
// its `@path` files (R-WF-4) and sends it as the prompt, its `allowed-tools` allowing those
// calls for that turn. `tern run "/name args"` uses the same expansion (`prompt`).
import type { Config } from "../config/types.js";
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
import { withCommandModel } from "./command-model.js";
import { parseCommandLine, setMcpPromptCommands, setWorkflowCommands } from "./table.js";
import type { Session } from "../engine/session.js";

/** Claude Code's tool names in `allowed-tools`, as tern names its tools. */
const CLAUDE_TOOLS: Record<string, string> = {
  Bash: "bash",
  Read: "read_file",
  Edit: "edit_file",
  MultiEdit: "edit_file",
  Write: "write_file",
  Grep: "grep",
  Glob: "glob",
  LS: "glob",
  WebFetch: "web_fetch",
  TodoWrite: "todo_write",
};

/**
 * One `allowed-tools` entry as a tern rule (R-TOOL-2): `Bash(git add:*)` → `bash(git add*)`
 * (Claude's `:*` is "this prefix"), `Read` → `read_file`, `mcp__set__tool` → `set__tool`.
 */
export function toTernRule(entry: string): string {
  const m = /^([\w.*-]+)(?:\((.*)\))?$/s.exec(entry.trim());
  if (!m) return entry.trim();
  const tool = CLAUDE_TOOLS[m[1]] ?? m[1].replace(/^mcp__/, "");
  if (m[2] === undefined) return tool;
  return `${tool}(${m[2].replace(/:\*$/, "*")})`;
}

/** Sends an expanded command as this turn's prompt, with its attachments and turn rules. */
export async function runWorkflowPrompt(host: CommandHost, prompt: WorkflowPrompt): Promise<void> {
  let content: ReturnType<typeof buildPromptContent>;
  try {
    content = buildPromptContent(prompt.text, host.cwd, [], host.session.status().model.endpoint.api, {
      textLimit: host.config.toolOutputLimit,
    });
  } catch (err) {
    if (err instanceof InputError) return host.error(err.message);
    throw err;
  }
  await host.work(
    () =>
      withCommandModel(
        host.session,
        host.config,
        host.baseUrl,
        prompt.model,
        () => host.session.send({ type: "prompt", content, allow: prompt.allow, shell: prompt.shell }),
        (text) => host.print(`notice: ${text}`),
      ),
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

function commandEntry(c: CustomCommand): SlashCommand {
  const label = c.scope === "project" ? "project" : "user";
  return entry(
    c.name,
    `${c.description} (${label})`,
    c.argumentHint,
    (rest) => ({
      text: expandArguments(c.body, rest),
      allow: c.allowedTools.map(toTernRule),
      model: c.model,
      ...(c.body.includes("!`") ? { shell: true } : {}),
    }),
    c.path,
  );
}

function skillEntry(s: Skill): SlashCommand {
  return entry(
    `/skill:${s.name}`,
    s.description ? `${s.description} (skill)` : "skill",
    s.argumentHint,
    (rest) => ({ text: skillPrompt(s, rest), allow: (s.allowedTools ?? []).map(toTernRule), model: s.model }),
    s.path,
  );
}

/** The workspace's custom commands and skills as table entries, with notices about bad files. */
export function workflowCommands(opts: {
  cwd: string;
  home: string;
  config: Pick<Config, "compat">;
  env?: NodeJS.ProcessEnv;
}): { commands: SlashCommand[]; warnings: string[] } {
  const files = loadWorkflowFiles(opts);
  return {
    commands: [
      ...files.commands.map(commandEntry),
      ...files.skills.filter((s) => /^[\w.:-]+$/.test(s.name)).map(skillEntry),
    ],
    warnings: files.warnings,
  };
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
