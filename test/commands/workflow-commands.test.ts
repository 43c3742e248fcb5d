// The workflow commands in the one table (R-WF-2): a Claude Code repository's commands and skills
// show in `/help`, the `/` menu and ACP's available commands with their descriptions; built-ins
// win; Claude's `allowed-tools` become tern rules; `/context` reads the record's context line.
import { cpSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { availableCommands } from "../../src/acp/commands.js";
import { contextText } from "../../src/commands/context-report.js";
import { COMMANDS, findCommand, helpText, setWorkflowCommands } from "../../src/commands/table.js";
import { registerWorkflowCommands, toTernRule } from "../../src/commands/workflow-commands.js";
import { defaultConfig } from "../../src/config/defaults.js";
import { argumentWords, expandArguments } from "../../src/prompt/expand.js";
import { commandMenu } from "../../src/tui/completion.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

const FIXTURE = resolve(import.meta.dirname, "../fixtures/claude-workspace");
let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
  cpSync(FIXTURE, dirs.workspace, { recursive: true });
});
afterEach(() => {
  setWorkflowCommands([]);
  dirs.cleanup();
});

const register = () =>
  registerWorkflowCommands({
    cwd: dirs.workspace,
    home: dirs.home,
    // Trusted: a workspace's allowed-tools grant nothing otherwise (§10, test/e2e/safety-trust-commands.test.ts).
    config: { ...defaultConfig(), trustedWorkspaces: [dirs.workspace] },
    env: { HOME: join(dirs.root, "user") },
  });

describe("custom commands in the shared table", () => {
  it("appear in /help, the / menu and ACP's available commands with description and hint", () => {
    expect(register()).toEqual([]);
    const names = COMMANDS.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(["/review", "/fix-issue", "/git:pr", "/skill:changelog"]));
    expect(names.indexOf("/help")).toBe(0);
    const help = helpText();
    expect(help).toContain("Custom commands and skills:");
    expect(help).toMatch(/\/review <file>\s+Review a file for bugs \(project\)/);
    // Without a description, the body's first line is the description (Claude Code's default).
    expect(help).toMatch(
      /\/fix-issue\s+Find and fix issue #\$ARGUMENTS\. Follow the coding standards\. \(project\)/,
    );
    expect(help).toMatch(/\/skill:changelog\s+Write a changelog entry from the recent commits \(skill\)/);
    const menu = commandMenu("/rev", 4);
    expect(menu?.items).toEqual([
      {
        label: "/review <file>",
        detail: "Review a file for bugs (project)",
        value: "/review ",
        needsArgs: true,
      },
    ]);
    expect(availableCommands()).toEqual(
      expect.arrayContaining([
        { name: "git:pr", description: "Open a pull request (project)", input: { hint: "[branch] [title]" } },
        { name: "skill:changelog", description: "Write a changelog entry from the recent commits (skill)" },
      ]),
    );
  });

  it("a built-in keeps its name; registering again replaces the earlier set", () => {
    mkdirSync(join(dirs.workspace, ".tern", "commands"), { recursive: true });
    const warnings = setWorkflowCommands([
      { name: "/status", description: "mine", timing: "idle", source: "/x/status.md", run: () => {} },
    ]);
    expect(warnings).toEqual(["/x/status.md: /status is a built-in command; the custom one is not used"]);
    expect(findCommand("/status")?.description).not.toBe("mine");
    register();
    setWorkflowCommands([]);
    expect(findCommand("/review")).toBeUndefined();
  });

  it("expands a body as the prompt, with the turn's allow rules", () => {
    register();
    const review = findCommand("/review")!.prompt!("src/a.ts");
    expect(review).toEqual({
      text: "Review @src/a.ts for bugs and list them by severity.",
      allow: ["read_file", "grep", "bash(git diff*)"],
      model: undefined,
    });
    expect(findCommand("/git:pr")!.prompt!("main x").model).toBe("anthropic/claude-haiku-4-5");
  });
});

describe("argument placeholders and allowed-tools", () => {
  it("fills $ARGUMENTS and $1…$9 in one pass; without placeholders the arguments follow", () => {
    expect(argumentWords(`a "b c" 'd e' f`)).toEqual(["a", "b c", "d e", "f"]);
    expect(expandArguments("do $1 then $2 ($ARGUMENTS), $3.", "x $2")).toBe("do x then $2 (x $2), .");
    expect(expandArguments("$10 stays", "a")).toBe("$10 stays\n\nARGUMENTS: a");
    expect(expandArguments("plain body", "extra words")).toBe("plain body\n\nARGUMENTS: extra words");
    expect(expandArguments("plain body", "")).toBe("plain body");
  });

  it("turns Claude Code's tool names into tern's", () => {
    expect(toTernRule("Bash(npm run test:*)")).toBe("bash(npm run test*)");
    expect(toTernRule("Write(src/**)")).toBe("write_file(src/**)");
    expect(toTernRule("mcp__github__create_issue")).toBe("github__create_issue");
    expect(toTernRule("web_fetch")).toBe("web_fetch");
  });
});

describe("/context", () => {
  it("shows system prompt, tools, each instruction file, the skills index and history", () => {
    const lines: any[] = [
      {
        type: "context",
        seq: 1,
        ts: "",
        system: "x".repeat(400),
        tools: [{ name: "bash", description: "run", parameters: {} }],
        sources: [
          { kind: "instructions", path: "/r/CLAUDE.md", tokens: 50 },
          { kind: "skill", path: "/r/.claude/skills/a/SKILL.md", tokens: 9 },
        ],
      },
      { type: "user_prompt", seq: 2, ts: "", turn: 1, content: [{ type: "text", text: "y".repeat(80) }] },
      {
        type: "notice",
        seq: 3,
        ts: "",
        turn: 1,
        text: "# Project instructions (from api/AGENTS.md)\nFile: /r/api/AGENTS.md\n\nz",
      },
    ];
    const text = contextText(lines);
    expect(text).toContain("system prompt  ~100 tokens");
    expect(text).toMatch(/tools \(1\) {2}~\d+ tokens/);
    expect(text).toContain("instruction files:\n  /r/CLAUDE.md  ~50 tokens");
    expect(text).toContain("skills index (1)  ~9 tokens");
    expect(text).toContain("joined later: /r/api/AGENTS.md");
    expect(text).toMatch(/history {2}~\d+ tokens/);
    expect(contextText([])).toBe("no context yet");
  });
});
