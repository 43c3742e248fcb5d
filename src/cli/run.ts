// `tern run`: one turn, headless. With --json, stdout carries only JSON Lines events;
// without, stdout carries only the final assistant text and stderr the progress (R-CLI-3).
import { buildPromptContent, exitCodeFor, InputError, loadSlashCommands } from "../commands/index.js";
import type { Config, ResolvedModel } from "../config/types.js";
import type { EngineEvent } from "../engine/door/events.js";
import type { TurnOutcome } from "../engine/door/outcome.js";
import { stripControlSequences } from "../workspace/terminal-text.js";
import type { RunOptions } from "./options.js";
import { describeProgress } from "./progress.js";
import { prepareSession } from "./setup.js";
import { UsageError } from "./usage-error.js";
import { jsonEventWriter } from "./json-events.js";
import { loadOutputSchema } from "./output-schema.js";
import { runJsonLines } from "./run-jsonl.js";

// `/name`, or a namespaced `/ns:name` (a subfolder, a plugin: R-WF-2, R-WF-6).
const SLASH_COMMAND = /^\/[A-Za-z][\w-]*(?::[\w.-]+)*$/;
export const CANCEL_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
/** 128 + the signal number, as shells report it. */
export const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = {
  SIGINT: 130,
  SIGTERM: 143,
  SIGHUP: 129,
  SIGPIPE: 141,
};
/** Emitted on `process` by the entry (main.ts) when stdout's reader has gone away. */
const BROKEN_PIPE = "tern:stdout-closed";

export async function runCommand(promptWords: string[], opts: RunOptions): Promise<number> {
  const jsonLines = readsJsonLines(opts, promptWords);
  // A bad schema file is a usage error before anything is opened or sent.
  const output = opts.outputSchema ? await loadOutputSchema(opts.outputSchema) : undefined;
  const prompt = jsonLines ? "" : await textPrompt(promptWords);
  const firstWord = prompt.trim().split(/\s+/)[0] ?? "";
  // Only a prompt that starts with `/` needs the command table (and the command files read).
  const slash = firstWord.startsWith("/") ? await loadSlashCommands() : undefined;
  if (slash && SLASH_COMMAND.test(firstWord) && slash.builtinCommand(firstWord))
    throw slashCommandError(firstWord);

  // Images are read (and refused over the provider's limit) before the session exists: a refused
  // image leaves nothing on disk and sends nothing (SPEC §10).
  let content: ReturnType<typeof buildPromptContent> = [];
  let allow: string[] | undefined;
  let shell: boolean | undefined;
  let commandModel: string | undefined;
  // An MCP prompt (`/mcp__<set>__<prompt>`) is known once its server has started: read after the open.
  let mcpPrompt = false;
  const attach = (text: string, model: ResolvedModel, config: Config) => {
    try {
      content = buildPromptContent(text, process.cwd(), opts.image ?? [], model.endpoint.api, {
        textLimit: config.toolOutputLimit,
        deny: config.permissions.deny,
      });
    } catch (err) {
      if (err instanceof InputError) throw new UsageError(err.message);
      throw err;
    }
  };
  const readInput = (model: ResolvedModel, config: Config) => {
    if (jsonLines) return;
    let text = prompt;
    const custom = slash?.findCommand(firstWord)?.prompt;
    if (slash && custom) {
      const expanded = custom(slash.parseCommandLine(prompt).rest);
      ({ text, allow, model: commandModel, shell } = expanded);
    } else if (firstWord.startsWith("/mcp__") && config.toolSets.length > 0) return void (mcpPrompt = true);
    else if (SLASH_COMMAND.test(firstWord))
      throw new UsageError(
        `${firstWord}: no such command (custom commands come from .tern/commands, .claude/commands and .gemini/commands)`,
      );
    attach(text, model, config);
  };
  const prepared = await prepareSession(
    opts,
    {
      // tern run never asks: --yes approves, otherwise what would ask is denied with a result saying so.
      approve: async (calls) =>
        new Map(calls.map((c) => [c.id, opts.yes ? ("approved" as const) : ("denied" as const)])),
      denialMessage: opts.yes
        ? undefined
        : "denied: tern run was started without --yes, so calls that need approval are not run (use --yes or --allow <rule>)",
    },
    readInput,
    { slashCommands: slash !== undefined },
  );
  const { session, model } = prepared;
  if (slash && mcpPrompt) {
    try {
      attach(await slash.expandMcpPrompt(session, prompt), model, prepared.config);
    } catch (err) {
      await session.close();
      throw err instanceof UsageError
        ? err
        : new UsageError(err instanceof Error ? err.message : String(err));
    }
  }

  const writeEvent = opts.json
    ? jsonEventWriter((line) => process.stdout.write(line))
    : (event: EngineEvent) => {
        const line = describeProgress(event);
        if (line !== undefined) process.stderr.write(`${line}\n`);
      };
  // Sub-agents' events too (R-AGENT-1): --json with their session id, progress lines with their agent.
  session.subscribe(writeEvent, { children: true });
  writeEvent({
    type: "session",
    id: session.id,
    cwd: process.cwd(),
    model: model.id,
    resumed: prepared.resumed,
  });
  for (const warning of prepared.warnings) writeEvent({ type: "notice", text: warning });

  // SIGINT, SIGTERM and SIGHUP all cancel the turn (R-REC-4): turn_end is written, tool process
  // groups are killed and servers closed; the exit code names the signal.
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    signalled ??= sig;
    session.cancel();
  };
  for (const sig of CANCEL_SIGNALS) process.on(sig, onSignal);
  // Nobody reads the answer any more: cancel as SIGPIPE would have (exit 141), and keep that
  // code should stdout fail again once the turn is over.
  const onBrokenPipe = () => {
    process.exitCode = SIGNAL_EXIT.SIGPIPE;
    onSignal("SIGPIPE");
  };
  process.on(BROKEN_PIPE as "exit", onBrokenPipe);
  // A custom command's `model` (R-WF-2) runs this turn only; --model names the session's model.
  const turnModel =
    slash && commandModel && !opts.model
      ? slash.commandModel(session, prepared.config, opts.baseUrl, commandModel, (text) =>
          writeEvent({ type: "notice", text }),
        )
      : undefined;
  const sendPrompt = () =>
    session.send({ type: "prompt", content, compact: opts.compact, output, allow, shell, model: turnModel });
  const printAnswer = (outcome: TurnOutcome) => {
    if (!opts.json) writeAnswer(outcome, output !== undefined);
  };
  try {
    const outcome = jsonLines
      ? await runJsonLines({
          session,
          api: model.endpoint.api,
          cwd: process.cwd(),
          output,
          onOutcome: printAnswer,
          stopped: () => signalled !== undefined,
        })
      : await sendPrompt();
    if (signalled) return SIGNAL_EXIT[signalled] ?? 130;
    if (!outcome) return 0;
    if (!jsonLines) printAnswer(outcome);
    return exitCodeFor(outcome.stopReason);
  } finally {
    await session.close();
    for (const sig of CANCEL_SIGNALS) process.off(sig, onSignal);
    process.off(BROKEN_PIPE as "exit", onBrokenPipe);
  }
}

/** `--input-format`: text (the prompt words or '-') or jsonl (R-AUTO-2: prompts come on stdin). */
function readsJsonLines(opts: RunOptions, promptWords: string[]): boolean {
  const format = opts.inputFormat ?? "text";
  if (format !== "text" && format !== "jsonl")
    throw new UsageError(`--input-format must be text or jsonl, not '${format}'`);
  if (format === "jsonl" && promptWords.length > 0)
    throw new UsageError("--input-format jsonl reads its prompts from stdin: give no prompt words");
  if (format === "jsonl" && opts.image?.length)
    throw new UsageError(
      '--input-format jsonl takes images as content parts ({"type":"image","path":…}), not --image',
    );
  return format === "jsonl";
}

async function textPrompt(promptWords: string[]): Promise<string> {
  const prompt =
    promptWords.length === 1 && promptWords[0] === "-" ? await readStdin() : promptWords.join(" ");
  if (!prompt.trim())
    throw new UsageError("run needs a prompt: tern run \"…\" (or '-' to read it from stdin)");
  return prompt;
}

/** Stdout carries the answer alone: with `--output-schema` the JSON value, or nothing when it never held. */
function writeAnswer(outcome: TurnOutcome, schema: boolean): void {
  if (schema) {
    if (outcome.outputValue !== undefined) process.stdout.write(`${JSON.stringify(outcome.outputValue)}\n`);
    return;
  }
  if (!outcome.finalText) return;
  const text = stripControlSequences(outcome.finalText);
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

function slashCommandError(name: string): UsageError {
  return new UsageError(
    `${name} is a slash command; slash commands work only in the interactive UI (run 'tern')`,
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
