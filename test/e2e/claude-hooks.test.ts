// Hooks written for Claude Code, unchanged, through the built CLI (R-HOOK-2 amended): they get
// Claude Code's tool names and argument shapes, so a guard that tests `tool_name == "Bash"` or
// reads `tool_input.file_path` blocks in tern what it blocks in Claude Code.
//
// VALIDATOR below does what Anthropic's example hook does — anthropics/claude-code,
// examples/hooks/bash_command_validator_example.py: a PreToolUse hook on "Bash" that exits 0
// unless `tool_name` is "Bash" and `tool_input.command` starts with `grep` (not piped) or
// `find … -name`, then prints why on stderr and exits 2. It is rewritten here (same checks, same
// exits), not copied. ENV_GUARD is the common "never read .env" guard of hook collections,
// reading `tool_input.file_path` as Claude Code's hooks reference documents it
// (code.claude.com/docs/en/hooks, "PreToolUse input").
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();

const VALIDATOR = `import json, re, sys
RULES = [(r"^grep\\b(?!.*\\|)", "Use 'rg' (ripgrep) instead of 'grep'"),
         (r"^find\\s+\\S+\\s+-name\\b", "Use 'rg --files -g pattern' instead of 'find -name'")]
data = json.load(sys.stdin)
if data.get("tool_name", "") != "Bash":
    sys.exit(0)
command = data.get("tool_input", {}).get("command", "")
issues = [m for p, m in RULES if re.search(p, command)]
for m in issues:
    print("* " + m, file=sys.stderr)
sys.exit(2 if issues else 0)
`;

const ENV_GUARD = `import json, os, sys
data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path", "")
if os.path.basename(path) == ".env":
    print("reading .env is not allowed", file=sys.stderr)
    sys.exit(2)
`;

/** A python hook in the fake user's ~/.claude/hooks, logging each payload beside itself. */
function pyHook(name: string, body: string): string {
  const dir = join(e.dirs.root, "user", ".claude", "hooks");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.py`);
  const log = join(dir, `${name}.log`);
  const logging = `import sys as _s, io as _io\n_raw = _s.stdin.read()\nopen(${JSON.stringify(log)}, "a").write(_raw + "\\n")\n_s.stdin = _io.StringIO(_raw)\n`;
  writeFileSync(file, logging + body);
  return `python3 ${file}`;
}
const payloads = (name: string): any[] => {
  const log = join(e.dirs.root, "user", ".claude", "hooks", `${name}.log`);
  return existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
};
const HOME = () => join(e.dirs.root, "user");
/** ~/.claude/settings.json of the fake user, as Claude Code reads it. */
function claudeSettings(settings: Record<string, unknown>): void {
  mkdirSync(join(HOME(), ".claude"), { recursive: true });
  writeFileSync(join(HOME(), ".claude", "settings.json"), JSON.stringify(settings));
}
const run = (args: string[]) => ternRun(e, args, "do it", { env: { HOME: HOME() } });
const result = (r: { events: any[] }, id: string) =>
  r.events.find((ev) => ev.type === "tool_result" && ev.id === id);

describe("hooks written for Claude Code", () => {
  it("Anthropic's bash validator blocks grep and find -name, lets rg run", async () => {
    const validator = pyHook("validator", VALIDATOR);
    claudeSettings({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: validator }] }] },
    });
    writeFileSync(join(e.dirs.workspace, "a.txt"), "needle\n");
    e.provider.enqueue(
      openaiToolCalls([
        { id: "g", name: "bash", args: { command: "grep needle a.txt" } },
        { id: "f", name: "bash", args: { command: "find . -name a.txt" } },
        { id: "r", name: "bash", args: { command: "echo rg-ok" } },
      ]),
      openaiText("ok"),
    );
    const r = await run(["--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(result(r, "g")).toMatchObject({ outcome: "denied" });
    expect(result(r, "g").content).toContain("Use 'rg' (ripgrep) instead of 'grep'");
    expect(result(r, "f").content).toContain("instead of 'find -name'");
    expect(result(r, "r")).toMatchObject({ outcome: "ok" });
    const seen = payloads("validator").find((p) => p.tool_use_id === "g");
    expect(seen).toMatchObject({ tool_name: "Bash", tool_input: { command: "grep needle a.txt" } });
  });

  it("a .env guard reading tool_input.file_path blocks Read; Read, Write, Edit, Glob, Grep get Claude's shapes", async () => {
    const guard = pyHook("envguard", ENV_GUARD);
    const audit = pyHook("audit", "");
    claudeSettings({
      hooks: {
        PreToolUse: [
          { matcher: "Read|Edit|Write", hooks: [{ type: "command", command: guard }] },
          { matcher: "*", hooks: [{ type: "command", command: audit }] },
        ],
        PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: audit }] }],
      },
    });
    writeFileSync(join(e.dirs.workspace, ".env"), "API_TOKEN=abc\n");
    writeFileSync(join(e.dirs.workspace, "b.txt"), "one\ntwo\n");
    e.provider.enqueue(
      openaiToolCalls([{ id: "env", name: "read_file", args: { path: ".env" } }]),
      openaiToolCalls([
        { id: "rd", name: "read_file", args: { path: "b.txt", offset: 1, limit: 5 } },
        { id: "gl", name: "glob", args: { pattern: "*.txt" } },
        { id: "gr", name: "grep", args: { pattern: "two", glob: "*.txt" } },
      ]),
      openaiToolCalls([
        { id: "ed", name: "edit_file", args: { path: "b.txt", old_string: "two", new_string: "TWO" } },
        { id: "wr", name: "write_file", args: { path: "c.txt", content: "new\n" } },
      ]),
      openaiText("ok"),
    );
    const r = await run(["--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(result(r, "env")).toMatchObject({ outcome: "denied" });
    expect(result(r, "env").content).toContain("reading .env is not allowed");
    expect(JSON.stringify(e.provider.requests.map((q) => q.body))).not.toContain("API_TOKEN=abc");
    const ws = e.dirs.workspace;
    const pre = (id: string) =>
      payloads("audit").find((p) => p.tool_use_id === id && p.hook_event_name === "PreToolUse");
    expect(pre("rd")).toMatchObject({
      tool_name: "Read",
      tool_input: { file_path: join(ws, "b.txt"), offset: 1, limit: 5 },
    });
    expect(pre("gl")).toMatchObject({ tool_name: "Glob", tool_input: { pattern: "*.txt" } });
    expect(pre("gr")).toMatchObject({ tool_name: "Grep", tool_input: { pattern: "two", glob: "*.txt" } });
    expect(pre("ed")).toMatchObject({
      tool_name: "Edit",
      tool_input: { file_path: join(ws, "b.txt"), old_string: "two", new_string: "TWO" },
    });
    expect(pre("wr")).toMatchObject({
      tool_name: "Write",
      tool_input: { file_path: join(ws, "c.txt"), content: "new\n" },
    });
    expect(pre("wr").tool_input.path).toBeUndefined();
    const post = payloads("audit").find((p) => p.hook_event_name === "PostToolUse");
    expect(post).toMatchObject({
      tool_name: "Write",
      tool_response: { filePath: join(ws, "c.txt"), success: true },
    });
  });

  it("updatedInput in Claude's shape maps back: a Write moved by file_path lands there", async () => {
    const mover = pyHook(
      "mover",
      `import json, sys
data = json.load(sys.stdin)
ti = dict(data["tool_input"])
ti["file_path"] = ti["file_path"].replace("draft.txt", "final.txt")
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": ti}}))
`,
    );
    claudeSettings({
      hooks: { PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: mover }] }] },
    });
    e.provider.enqueue(
      openaiToolCalls([{ id: "w", name: "write_file", args: { path: "draft.txt", content: "moved\n" } }]),
      openaiText("ok"),
    );
    const r = await run(["--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(result(r, "w")).toMatchObject({ outcome: "ok" });
    expect(existsSync(join(e.dirs.workspace, "draft.txt"))).toBe(false);
    expect(readFileSync(join(e.dirs.workspace, "final.txt"), "utf8")).toBe("moved\n");
  });

  it("PreToolUse sees a call a deny rule refuses; the deny holds even when the hook allows", async () => {
    const allowAll = pyHook(
      "allowall",
      `print('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}')\n`,
    );
    claudeSettings({
      hooks: { PreToolUse: [{ matcher: "", hooks: [{ type: "command", command: allowAll }] }] },
    });
    writeUserConfig(e, { permissions: { deny: ["bash(touch *)"] } });
    e.provider.enqueue(
      openaiToolCalls([{ id: "d", name: "bash", args: { command: "touch denied.txt" } }]),
      openaiText("ok"),
    );
    const r = await run(["--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(result(r, "d").content).toContain("denied by rule");
    expect(existsSync(join(e.dirs.workspace, "denied.txt"))).toBe(false);
    expect(payloads("allowall").map((p) => p.tool_input.command)).toEqual(["touch denied.txt"]);
  });

  it('"hookToolNames": "tern" keeps tern\'s names for a tern config\'s own hooks only', async () => {
    const mine = pyHook("mine", "");
    const claudes = pyHook("claudes", "");
    claudeSettings({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: claudes }] }] },
    });
    writeUserConfig(e, {
      hookToolNames: "tern",
      hooks: { PreToolUse: [{ matcher: "bash", hooks: [{ type: "command", command: mine }] }] },
    });
    e.provider.enqueue(
      openaiToolCalls([{ id: "b", name: "bash", args: { command: "echo hi" } }]),
      openaiText("ok"),
    );
    const r = await run(["--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(payloads("mine")[0]).toMatchObject({
      tool_name: "bash",
      tool_input: { command: "echo hi" },
      permission_mode: "yolo",
    });
    expect(payloads("claudes")[0]).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "echo hi" },
      permission_mode: "bypassPermissions",
    });
  });
});
