// Claude Code plugins in tern (R-WF-6), through the built CLI: a plugin folder laid out as Claude
// Code's plugins reference shows (code.claude.com/docs/en/plugins-reference:
// `.claude-plugin/plugin.json`, `commands/`, `agents/`, `skills/`, `hooks/hooks.json` with
// `${CLAUDE_PLUGIN_ROOT}`, `.mcp.json`), loaded with `--plugin-dir`, config `plugins`, and from
// Claude Code's own `~/.claude/plugins/installed_plugins.json` (version 2). Commands and agents
// are namespaced (`/audit-kit:hello`, `audit-kit:reviewer`); the hook guards Bash and an MCP tool
// by its `mcp__plugin_<plugin>_<server>__<tool>` name; a workspace that is not trusted cannot
// bring a plugin in through its own config.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { offeredTools, scriptBySession } from "./subagents-support.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";

/** Claude Code's placeholder, written as plugin files write it. */
const ROOT = ["$", "{CLAUDE_PLUGIN_ROOT}"].join("");
const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const e = useE2E();

/** The plugin folder, written as a Claude Code plugin author writes one. */
function makePlugin(at: string): string {
  const file = (rel: string, text: string) => {
    mkdirSync(join(at, rel, ".."), { recursive: true });
    writeFileSync(join(at, rel), text);
  };
  file(
    ".claude-plugin/plugin.json",
    JSON.stringify({ name: "audit-kit", version: "1.0.0", description: "Audits" }),
  );
  file("commands/hello.md", "---\ndescription: Greets\n---\nSay hello to $ARGUMENTS.\n");
  file("agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews\ntools: Read\n---\nYou review.\n");
  file("skills/style/SKILL.md", "---\nname: style\ndescription: House style\n---\nWrite short sentences.\n");
  file(
    "scripts/guard.py",
    `import json, os, sys
data = json.load(sys.stdin)
open(os.path.join(os.environ["CLAUDE_PLUGIN_ROOT"], "seen.log"), "a").write(data["tool_name"] + "\\n")
command = data.get("tool_input", {}).get("command", "")
if "rm -rf" in command:
    print("audit-kit: rm -rf is blocked", file=sys.stderr)
    sys.exit(2)
`,
  );
  file(
    "hooks/hooks.json",
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash|mcp__plugin_audit-kit_files__.*",
            hooks: [{ type: "command", command: `python3 ${ROOT}/scripts/guard.py` }],
          },
        ],
      },
    }),
  );
  file("server.mjs", `await import(${JSON.stringify(SERVER)});\n`);
  file(
    ".mcp.json",
    JSON.stringify({
      mcpServers: { files: { command: process.execPath, args: [`${ROOT}/server.mjs`] } },
    }),
  );
  return at;
}
const seen = (root: string) =>
  existsSync(join(root, "seen.log"))
    ? readFileSync(join(root, "seen.log"), "utf8").split("\n").filter(Boolean)
    : [];
const firstText = (i: number) => {
  const user = e.provider.requests[i].body.messages.find((m: any) => m.role === "user");
  return typeof user.content === "string" ? user.content : user.content.map((p: any) => p.text).join("\n");
};

describe("Claude Code plugins (R-WF-6)", () => {
  it("--plugin-dir: a namespaced command, agent and skill; its hook guards Bash and its own MCP tool", async () => {
    const plugin = makePlugin(join(e.dirs.root, "audit-kit"));
    e.provider.enqueue(openaiText("hello said"));
    const hello = await ternRun(e, ["--plugin-dir", plugin], "/audit-kit:hello the team");
    expect(hello.code, hello.stderr).toBe(0);
    expect(firstText(0)).toBe("Say hello to the team.");
    // Its skill is in the system prompt's skills index, namespaced.
    expect(e.provider.requests[0].body.messages[0].content).toContain("- audit-kit:style: House style");

    e.provider.enqueue(openaiText("styled"));
    expect((await ternRun(e, ["--plugin-dir", plugin], "/skill:audit-kit:style now")).code).toBe(0);
    expect(firstText(1)).toContain("Write short sentences.");
    e.provider.enqueue(openaiText("styled again"));
    expect((await ternRun(e, ["--plugin-dir", plugin], "/audit-kit:style now")).code).toBe(0);
    expect(firstText(2)).toContain("Write short sentences.");

    e.provider.enqueue(
      openaiToolCalls([
        { id: "b", name: "bash", args: { command: "rm -rf nothing-here" } },
        { id: "m", name: "plugin_audit-kit_files__echo", args: { text: "hi" } },
      ]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes", "--plugin-dir", plugin]);
    expect(run.code, run.stderr).toBe(0);
    const result = (id: string) => run.events.find((ev) => ev.type === "tool_result" && ev.id === id);
    expect(result("b")).toMatchObject({ outcome: "denied" });
    expect(result("b").content).toContain("audit-kit: rm -rf is blocked");
    expect(result("m")).toMatchObject({ outcome: "ok" });
    expect(result("m").content).toContain("echo: hi");
    expect(seen(plugin).sort()).toEqual(["Bash", "mcp__plugin_audit-kit_files__echo"]);
  });

  it("its agent runs as audit-kit:reviewer; config check lists the plugin's parts", async () => {
    const plugin = makePlugin(join(e.dirs.root, "audit-kit"));
    writeUserConfig(e, { plugins: [plugin] });
    const arrivals = scriptBySession(e, {
      "do it": [
        openaiToolCalls([
          {
            id: "t",
            name: "task",
            args: { description: "review", prompt: "review it", agent: "audit-kit:reviewer" },
          },
        ]),
        openaiText("parent done"),
      ],
      "review it": [openaiText("reviewed")],
    });
    const run = await ternRun(e, []);
    expect(run.code, run.stderr).toBe(0);
    const child = arrivals.find((a) => a.asker === "review it")!.request.body;
    expect(child.messages[0].content).toContain("You review.");
    expect(offeredTools(child)).toEqual(["read_file"]);
    const check = await e.run(["config", "check"]);
    expect(check.stdout).toContain(`agent: audit-kit:reviewer  (${join(plugin, "agents", "reviewer.md")})`);
    expect(check.stdout).toContain(
      `hook: PreToolUse "Bash|mcp__plugin_audit-kit_files__.*" python3 ${plugin}/scripts/guard.py`,
    );
  });

  it("Claude Code's installed plugins load with compat.claude; an untrusted workspace's config cannot add one", async () => {
    const person = join(e.dirs.root, "person");
    const installed = makePlugin(join(person, ".claude", "plugins", "cache", "market", "audit-kit", "1.0.0"));
    mkdirSync(join(person, ".claude", "plugins"), { recursive: true });
    writeFileSync(
      join(person, ".claude", "plugins", "installed_plugins.json"),
      JSON.stringify({
        version: 2,
        plugins: { "audit-kit@market": [{ scope: "user", installPath: installed, version: "1.0.0" }] },
      }),
    );
    e.provider.enqueue(openaiText("hi"));
    const run = await ternRun(e, [], "/audit-kit:hello you", { env: { HOME: person } });
    expect(run.code, run.stderr).toBe(0);
    expect(firstText(0)).toBe("Say hello to you.");
    // Switched off in Claude Code: not loaded.
    writeFileSync(
      join(person, ".claude", "settings.json"),
      JSON.stringify({ enabledPlugins: { "audit-kit@market": false } }),
    );
    const off = await ternRun(e, [], "/audit-kit:hello you", { env: { HOME: person } });
    expect(off.code).toBe(2);
    expect(off.stderr).toContain("/audit-kit:hello: no such command");

    const other = makePlugin(join(e.dirs.root, "other"));
    mkdirSync(join(e.dirs.workspace, ".tern"), { recursive: true });
    writeFileSync(join(e.dirs.workspace, ".tern", "config.json"), JSON.stringify({ plugins: [other] }));
    const untrusted = await ternRun(e, [], "/audit-kit:hello you");
    expect(untrusted.code).toBe(2);
    const check = await e.run(["config", "check"]);
    expect(check.stdout).toContain(
      ".tern/config.json: plugins ignored: this workspace is not in trustedWorkspaces (its plugins are not loaded)",
    );
  });
});
