// The command-line contract of SPEC §1. Parsing here, each action's implementation in commands.ts.
import { Command, CommanderError, Option } from "commander";
import { ownProcEnviron, registerSecretsFromEnv } from "../config/secrets.js";
import { redactTerminalOutput } from "./redacted-output.js";
import type { AcpOptions, CommonOptions, RunOptions } from "./options.js";
import { UsageError } from "./usage-error.js";

// Static: the bundle's start path is then one chunk (see startPathAnchor in
// scripts/build-plugins.mjs); only `tern --help` and usage errors pay for compiling what they do not run.
import * as commands from "./commands.js";
import {
  addMcpCommand,
  addModelsCommand,
  addWorktreesCommand,
  type CommandContext,
  type SetResult,
} from "./program-more.js";
import { shutdownTelemetry } from "../telemetry/lifecycle.js";

const collect = (value: string, previous: string[] = []) => [...previous, value];

function addCommonOptions(cmd: Command): Command {
  return (
    cmd
      .option("--model <provider/model>", "model to use, e.g. openai/gpt-4.1")
      .option(
        "--base-url <url>",
        "provider base URL (an OpenAI-compatible server when the provider is not configured)",
      )
      .option("--config <file>", "extra config file, merged over the user and workspace config")
      .option("--continue", "continue the latest session of this workspace")
      // The id may be left out in the interactive UI, which then opens a session picker (R-UI-17).
      .option("--resume [id]", "resume the session with this id (tern alone: pick one)")
      .option("--system <text>", "extra system text for this run")
      .option("--yes", "approve every tool call (deny rules still apply)")
      .option("--allow <rule>", "allow rule such as 'bash(git status*)' (repeatable)", collect)
      .option("--max-model-calls <n>", "override executionBudget.maximumModelCalls")
      .option("--max-tool-calls <n>", "override executionBudget.maximumToolCalls")
      .option("--max-duration <seconds>", "override executionBudget.maximumDurationSeconds")
      .option("--max-budget-usd <usd>", "stop a turn once it has cost this many US dollars")
      .option("--sandbox <mode>", "run bash in the OS sandbox: off, read-only or workspace-write")
      .option("--thinking <level>", "reasoning level: off, low, medium or high")
      .option("--mode <mode>", "permission mode: ask, auto-edit, yolo or plan")
      .option("--worktree [name]", "run in a new git worktree on branch tern/<name> (kept only if changed)")
      .option("--plugin-dir <dir>", "load a Claude Code plugin folder (repeatable)", collect)
  );
}

function addRunCommand(program: Command, ctx: CommandContext): void {
  addCommonOptions(
    program
      .command("run")
      .description("run one turn headless and exit; '-' reads the prompt from stdin")
      .argument("[prompt...]", "the prompt"),
  )
    .option("--json", "print events as JSON Lines on stdout")
    .option("--image <file>", "attach an image (repeatable)", collect)
    .option("--compact", "compact the resumed session's context before the turn")
    .option("--output-schema <file>", "the answer must be one JSON value valid against this JSON Schema")
    .option("--input-format <format>", "text (default) or jsonl: prompts and cancels as JSON lines on stdin")
    .action((prompt: string[], opts: RunOptions) => {
      const words = promptBesideWorktree(prompt, opts);
      ctx.setResult(commands.inWorktree(opts, () => commands.runCommand(words, opts)));
    });
}

/**
 * `tern run --worktree "fix the test"`: commander takes the prompt for the worktree's name. A value
 * that is no usable name, or that no prompt follows, is the prompt's first word and the name is
 * generated, as a person who wrote it meant.
 */
function promptBesideWorktree(prompt: string[], opts: RunOptions): string[] {
  const value = opts.worktree;
  if (typeof value !== "string") return prompt;
  if (prompt.length > 0 && /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(value)) return prompt;
  opts.worktree = true;
  return [value, ...prompt];
}

function addAcpCommand(program: Command, ctx: CommandContext): void {
  program
    .command("acp")
    .description("serve the Agent Client Protocol on stdio (for editors: Zed, Neovim, JetBrains)")
    .option("--model <provider/model>", "model to use, e.g. openai/gpt-4.1")
    .option(
      "--base-url <url>",
      "provider base URL (an OpenAI-compatible server when the provider is not configured)",
    )
    .option("--system <text>", "extra system text for every session")
    .option("--allow <rule>", "allow rule such as 'bash(git status*)' (repeatable)", collect)
    .option("--mode <mode>", "permission mode of new sessions: ask, auto-edit, yolo or plan")
    .action((opts: AcpOptions) => {
      ctx.setResult(commands.acpCommand(opts, ctx.version));
    });
}

function addSessionsCommand(program: Command, ctx: CommandContext): void {
  program
    .command("sessions")
    .description("list the sessions of this workspace")
    .option("--json", "print JSON")
    .action((opts: { json?: boolean }) => {
      ctx.setResult(commands.sessionsCommand(opts));
    });
}

function addExportCommand(program: Command, ctx: CommandContext): void {
  program
    .command("export")
    .description("print a session's archive")
    .argument("<id>", "session id (a unique prefix is enough)")
    .addOption(new Option("--format <format>", "md or json").choices(["md", "json"]).default("md"))
    .action((id: string, opts: { format: "md" | "json" }) => {
      ctx.setResult(commands.exportCommand(id, opts));
    });
}

function addForkCommand(program: Command, ctx: CommandContext): void {
  program
    .command("fork")
    .description("start a new session replaying another's archive up to a turn")
    .argument("<id>", "session id")
    .option("--at <turn>", "last turn to copy (default: all)")
    .action((id: string, opts: { at?: string }) => {
      ctx.setResult(commands.forkCommand(id, opts));
    });
}

function addMetricsCommand(program: Command, ctx: CommandContext): void {
  program
    .command("metrics")
    .description("the ledger: one row per turn (and per /compact), totals per session and per model")
    .option("--json", "print JSON")
    .option("--since <date>", "only turns started on or after this date")
    .option("--rebuild", "recreate the ledger from the session records")
    .action((opts: { json?: boolean; since?: string; rebuild?: boolean }) => {
      ctx.setResult(commands.metricsCommand(opts));
    });
}

function addUndoCommand(program: Command, ctx: CommandContext): void {
  program
    .command("undo")
    .description("restore the files to before the last turn(s) and withdraw those turns")
    .argument("[id]", "session id (default: this workspace's newest session)")
    .option("--turns <n>", "how many turns to undo (default 1)")
    .option("--force", "restore even if files changed since the session's last snapshot")
    .action((id: string | undefined, opts: { turns?: string; force?: boolean }) => {
      ctx.setResult(commands.undoCommand(id, opts));
    });
}

function addRedoCommand(program: Command, ctx: CommandContext): void {
  program
    .command("redo")
    .description("put back what the last undo took back")
    .argument("[id]", "session id (default: this workspace's newest session)")
    .option("--force", "restore even if files changed since the undo")
    .action((id: string | undefined, opts: { force?: boolean }) => {
      ctx.setResult(commands.redoCommand(id, opts));
    });
}

function addDiffCommand(program: Command, ctx: CommandContext): void {
  program
    .command("diff")
    .description("unified diff of what a session (or one turn) changed in the files")
    .argument("[id]", "session id (default: this workspace's newest session)")
    .option("--turn <n>", "only this turn")
    .action((id: string | undefined, opts: { turn?: string }) => {
      ctx.setResult(commands.diffCommand(id, opts));
    });
}

function addHooksCommand(program: Command, ctx: CommandContext): void {
  const hooks = program.command("hooks").description("the hooks of this workspace (R-HOOK)");
  hooks
    .command("test")
    .description("run the hooks of an event once on a sample payload and print what each decided")
    .argument("<event>", "PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, …")
    .option("--tool <name>", "the tool name for PreToolUse / PostToolUse (default bash)")
    .option("--config <file>", "extra config file")
    .action((event: string, opts: { tool?: string; config?: string }) => {
      ctx.setResult(commands.hooksTestCommand(event, opts));
    });
}

function addConfigCommand(program: Command, ctx: CommandContext): void {
  const config = program.command("config").description("configuration");
  config
    .command("check")
    .description("validate the merged configuration and print where each value came from")
    .option("--config <file>", "extra config file")
    .option("--model <provider/model>", "model flag to include")
    .action((opts: { config?: string; model?: string }) => {
      ctx.setResult(commands.configCheckCommand(opts));
    });
}

/** Each subcommand's registration, by the name that selects it. */
const SUBCOMMANDS = new Map<string, (program: Command, ctx: CommandContext) => void>([
  ["run", addRunCommand],
  ["acp", addAcpCommand],
  ["sessions", addSessionsCommand],
  ["export", addExportCommand],
  ["fork", addForkCommand],
  ["metrics", addMetricsCommand],
  ["undo", addUndoCommand],
  ["redo", addRedoCommand],
  ["diff", addDiffCommand],
  ["config", addConfigCommand],
  ["hooks", addHooksCommand],
  ["worktrees", addWorktreesCommand],
  ["models", addModelsCommand],
  ["mcp", addMcpCommand],
]);

function buildProgram(version: string, setResult: SetResult, argv: readonly string[]): Command {
  const program = new Command("tern")
    .description("A terminal coding agent")
    .version(version, "-V, --version")
    // A parse error is one line: commander's message (with its "Did you mean" folded in) and
    // where to read more.
    .configureOutput({
      outputError: (text, write) =>
        write(`${text.trim().replace(/\s*\n\s*/g, " ")} (run 'tern --help' for usage)\n`),
    })
    // Options after a subcommand belong to it: `tern run --model x` must not be taken by `tern`.
    .enablePositionalOptions();
  // A command line that starts with a subcommand (`tern run …`) parses the same with only that
  // one registered, and registering all of them costs commander a few ms of every start; help,
  // a typo (which gets a suggestion) and the interactive UI's own flags get them all.
  const named = SUBCOMMANDS.has(argv[0] ?? "") ? argv[0] : undefined;
  if (named === undefined) {
    addCommonOptions(program);
    program.option("--plain", "line-based interactive mode instead of the full-screen UI");
    program.action(async (opts: CommonOptions) => {
      setResult(commands.inWorktree(opts, () => commands.interactiveCommand(opts)));
    });
  }
  for (const [name, register] of SUBCOMMANDS)
    if (named === undefined || name === named) register(program, { setResult, version });
  return program;
}

/** Runs the CLI; resolves to the process exit code. Usage errors exit 2 (R-CLI-2). */
export async function runProgram(argv: string[], version: string): Promise<number> {
  // Before anything can print: values of secret-looking variables are known from the start;
  // configured provider keys join when the session opens (R-CFG-3).
  ownProcEnviron();
  registerSecretsFromEnv(process.env);
  redactTerminalOutput();
  let result: Promise<number> = Promise.resolve(0);
  const program = buildProgram(
    version,
    (p) => {
      result = p;
    },
    argv,
  );
  const overrideExits = (cmd: Command): void => {
    cmd.exitOverride();
    for (const sub of cmd.commands) overrideExits(sub);
  };
  overrideExits(program);
  try {
    await program.parseAsync(argv, { from: "user" });
    return await result;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit 0; every parse error is a usage error.
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof UsageError) {
      process.stderr.write(`tern: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    // Whatever ran, telemetry that started is flushed (at most 2 s) before the exit (R-AUTO-3).
    await shutdownTelemetry();
  }
}
