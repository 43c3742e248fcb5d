// `tern hooks test <Event> [--tool NAME]` (R-HOOK-4): runs the hooks an event would run, once, on
// a sample payload, and prints what each decided — the way to try a hook before a session meets it.
import { join } from "node:path";
import { scrubbedEnv } from "../config/secrets.js";
import { configuredHooks } from "../hooks/configured.js";
import { HOOK_EVENTS, isHookEvent } from "../hooks/events.js";
import { namesOf } from "../hooks/match.js";
import { type HookRunReport, HookRunner } from "../hooks/runner.js";
import { loadSettings, ternHome } from "./setup.js";
import { UsageError } from "./usage-error.js";

export async function hooksTestCommand(
  event: string,
  opts: { tool?: string; config?: string },
): Promise<number> {
  if (!isHookEvent(event))
    throw new UsageError(`hooks test: ${event} is not a hook event (${HOOK_EVENTS.join(", ")})`);
  const cwd = process.cwd();
  const loaded = await loadSettings({ config: opts.config }, ternHome(), cwd);
  const { hooks, notices } = configuredHooks(loaded, cwd, process.env);
  for (const notice of notices) process.stderr.write(`tern: ${notice}\n`);
  const reports: HookRunReport[] = [];
  const runner = new HookRunner({
    hooks,
    cwd,
    env: scrubbedEnv(process.env, loaded.config),
    sessionId: "hooks-test",
    transcriptPath: "",
    permissionMode: () => loaded.config.permissions.mode,
    onRun: (report) => reports.push(report),
  });
  const tool = opts.tool ?? "bash";
  const match =
    event === "PreToolUse" || event === "PostToolUse" ? { value: tool, aliases: namesOf(tool) } : undefined;
  const outcome = await runner.run(event, samplePayload(event, tool, cwd), { match });
  if (reports.length === 0) {
    process.stdout.write(`no hook runs for ${event}${match ? ` on ${tool}` : ""}\n`);
    return 0;
  }
  for (const r of reports) {
    const source = hooks.find((h) => h.command === r.command)?.source ?? "";
    process.stdout.write(
      `${r.event}  ${r.command}  exit ${r.exit ?? "-"}  ${r.decision}  ${r.durationMs} ms  (${source})${r.message ? `  ${r.message}` : ""}\n`,
    );
  }
  if (outcome.permission)
    process.stdout.write(
      `permission: ${outcome.permission}${outcome.reason ? ` (${outcome.reason})` : ""}\n`,
    );
  if (outcome.block !== undefined) process.stdout.write(`blocked: ${outcome.block}\n`);
  if (outcome.stop !== undefined) process.stdout.write(`stop: ${outcome.stop}\n`);
  if (outcome.updatedInput) process.stdout.write(`updated input: ${JSON.stringify(outcome.updatedInput)}\n`);
  for (const context of outcome.context) process.stdout.write(`context: ${context}\n`);
  return 0;
}

function samplePayload(event: string, tool: string, cwd: string): Record<string, unknown> {
  const toolInput =
    tool === "bash"
      ? { command: "echo hello" }
      : { path: "example.txt", file_path: join(cwd, "example.txt") };
  switch (event) {
    case "PreToolUse":
      return { tool_name: tool, tool_input: toolInput, tool_use_id: "hooks-test-1" };
    case "PostToolUse":
      return {
        tool_name: tool,
        tool_input: toolInput,
        tool_response: { outcome: "ok", content: "hello" },
        tool_use_id: "hooks-test-1",
      };
    case "UserPromptSubmit":
      return { prompt: "hello" };
    case "Stop":
      return { stop_hook_active: false };
    case "SubagentStop":
      return {
        stop_hook_active: false,
        agent_id: "hooks-test-agent",
        agent_type: "explore",
        agent_transcript_path: join(cwd, "agent-record.jsonl"),
        last_assistant_message: "hello",
      };
    case "SessionStart":
      return { source: "startup" };
    case "SessionEnd":
      return { reason: "other" };
    case "PreCompact":
      return { trigger: "manual", custom_instructions: "" };
    default:
      return { message: "tern needs your permission to use bash", notification_type: "permission_prompt" };
  }
}
