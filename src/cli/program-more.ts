// Subcommands registered beside program.ts's (worktrees, models, mcp), and what every
// subcommand's registration receives; apart so program.ts stays small.
import type { Command } from "commander";
import * as commands from "./commands.js";

export type SetResult = (p: Promise<number>) => void;
/** What a subcommand's action needs: where to hand its result, and tern's version. */
export interface CommandContext {
  setResult: SetResult;
  version: string;
}

export function addWorktreesCommand(program: Command, ctx: CommandContext): void {
  const worktrees = program
    .command("worktrees")
    .description("the git worktrees tern made in this repository (R-WT)")
    .option("--json", "print JSON")
    .action((opts: { json?: boolean }) => {
      ctx.setResult(commands.worktreesCommand(opts));
    });
  worktrees
    .command("remove")
    .description("remove a worktree (and its branch when it holds no new commit)")
    .argument("<name>", "the worktree's name")
    .option("--force", "remove it even with uncommitted changes, and its branch even with new commits")
    .action((name: string, opts: { force?: boolean }) => {
      ctx.setResult(commands.worktreeRemoveCommand(name, opts));
    });
}

export function addModelsCommand(program: Command, ctx: CommandContext): void {
  program
    .command("models")
    .description("list the model catalogue (window, output limit, prices) with its source's date")
    .argument("[provider]", "only this provider's models")
    .option("--config <file>", "extra config file")
    .action((provider: string | undefined, opts: { config?: string }) => {
      ctx.setResult(commands.modelsCommand(provider, opts));
    });
}

export function addMcpCommand(program: Command, ctx: CommandContext): void {
  const mcp = program
    .command("mcp")
    .description("MCP servers: log in and out of HTTP servers, list their state (R-MCP-1)");
  mcp
    .command("login")
    .description(
      "log in to an HTTP MCP server (OAuth): prints the URL, waits for the redirect, stores the tokens",
    )
    .argument("<name>", "the server's name")
    .option("--config <file>", "extra config file")
    .action((name: string, opts: { config?: string }) => {
      ctx.setResult(commands.mcpLoginCommand(name, opts));
    });
  mcp
    .command("logout")
    .description("forget an MCP server's stored login")
    .argument("<name>", "the server's name")
    .option("--config <file>", "extra config file")
    .action((name: string, opts: { config?: string }) => {
      ctx.setResult(commands.mcpLogoutCommand(name, opts));
    });
  mcp
    .command("list")
    .description("each MCP server: connected, needs login or failed, with its tool count")
    .option("--config <file>", "extra config file")
    .option("--json", "print JSON")
    .action((opts: { config?: string; json?: boolean }) => {
      ctx.setResult(commands.mcpListCommand(opts));
    });
}
