// Hooks through the built CLI (R-HOOK-1..4), written the way Claude Code users write them: a
// script reading the JSON on stdin, answering by exit code or JSON on stdout. Each use below is a
// common one (a guard, a formatter, a "don't stop yet", context at the start), plus the trust
// rule, precedence over rules and --yes, a re-judged updatedInput, and the record of every run.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { recordLines, ternRun, useE2E, writeUserConfig } from "./tools-support.js";
import { hookPayloads, hookScript } from "../support/hook-scripts.js";

const e = useE2E();

const hooksDir = () => join(e.dirs.workspace, "hooks");
/** A hook script in the workspace (`node <file>`), its stdin saved beside it for the test to read. */
const script = (name: string, body: string): string => hookScript(hooksDir(), name, body);
const received = (name: string): any[] => hookPayloads(hooksDir(), name);

const hooksConfig = (hooks: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  writeUserConfig(e, { hooks, ...extra });

describe("hooks", () => {
  it("a PreToolUse guard blocks rm -rf even with --yes; its payload has the documented fields", async () => {
    writeFileSync(join(e.dirs.workspace, "keep.txt"), "keep");
    const guard = script(
      "guard",
      `if (/rm\\s+-rf/.test(input.tool_input.command)) { process.stderr.write("rm -rf is not allowed here"); process.exit(2); }`,
    );
    hooksConfig({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard }] }] });
    e.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "bash", args: { command: "rm -rf keep.txt" } },
        { id: "c2", name: "bash", args: { command: "echo fine" } },
      ]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(e.dirs.workspace, "keep.txt"))).toBe(true);
    const results = run.events.filter((ev) => ev.type === "tool_result");
    expect(results.find((r) => r.id === "c1")).toMatchObject({ outcome: "denied" });
    expect(results.find((r) => r.id === "c1").content).toContain("rm -rf is not allowed here");
    expect(results.find((r) => r.id === "c2")).toMatchObject({ outcome: "ok" });
    // The batch's hooks run side by side: find the run for c1.
    const first = received("guard").find((r) => r.tool_use_id === "c1");
    const sessionId = run.events.find((ev) => ev.type === "session").id;
    expect(first).toMatchObject({
      session_id: sessionId,
      cwd: e.dirs.workspace,
      // --yes approves everything: the session's mode is yolo, Claude Code's bypassPermissions.
      permission_mode: "bypassPermissions",
      hook_event_name: "PreToolUse",
      // Claude Code's name for the tool (R-HOOK-2 amended).
      tool_name: "Bash",
      tool_use_id: "c1",
      tool_input: { command: "rm -rf keep.txt" },
    });
    expect(first.transcript_path).toMatch(/record\.jsonl$/);
    expect(existsSync(first.transcript_path)).toBe(true);
    // Every run is a record line and an event.
    const hookEvents = run.events.filter((ev) => ev.type === "hook");
    expect(hookEvents.map((h) => h.decision).sort()).toEqual(["block", "none"]);
    expect(hookEvents[0]).toMatchObject({ event: "PreToolUse", command: guard });
    expect(typeof hookEvents[0].duration_ms).toBe("number");
    expect(recordLines(e).filter((l) => l.type === "hook")).toHaveLength(2);
  });

  it("a PostToolUse formatter on Edit|Write (Claude Code's names) rewrites the file tern wrote", async () => {
    const format = script(
      "format",
      `const f = input.tool_input.file_path; fs.writeFileSync(f, fs.readFileSync(f, "utf8").toUpperCase());`,
    );
    hooksConfig({ PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: format }] }] });
    e.provider.enqueue(
      openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "a.txt", content: "hello\n" } }]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(e.dirs.workspace, "a.txt"), "utf8")).toBe("HELLO\n");
    expect(received("format")[0]).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: join(e.dirs.workspace, "a.txt"), content: "hello\n" },
      tool_response: { filePath: join(e.dirs.workspace, "a.txt"), success: true },
    });
  });

  it("a Stop hook refuses to stop until a file exists; the turn goes on with its reason", async () => {
    const gate = script(
      "gate",
      `if (!fs.existsSync("done.txt")) { process.stderr.write("create done.txt before you stop"); process.exit(2); }`,
    );
    hooksConfig({ Stop: [{ hooks: [{ type: "command", command: gate }] }] });
    e.provider.enqueue(
      openaiText("I am done."),
      openaiToolCalls([{ id: "t1", name: "bash", args: { command: "touch done.txt" } }]),
      openaiText("Now I am done."),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code, run.stderr).toBe(0);
    expect(e.provider.requests).toHaveLength(3);
    expect(JSON.stringify(e.provider.requests[1].body.messages)).toContain("create done.txt before you stop");
    const stops = received("gate");
    expect(stops.map((s) => s.stop_hook_active)).toEqual([false, true]);
    expect(run.end).toMatchObject({ stop_reason: "completed" });
  });

  it("a SessionStart hook's stdout joins the context of the first prompt, labelled", async () => {
    const start = script("start", `process.stdout.write("branch main, 2 files changed");`);
    hooksConfig({ SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: start }] }] });
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, []);
    expect(run.code, run.stderr).toBe(0);
    const sent = JSON.stringify(e.provider.requests[0].body.messages);
    expect(sent).toContain("[hook SessionStart]");
    expect(sent).toContain("branch main, 2 files changed");
    expect(received("start")[0]).toMatchObject({ hook_event_name: "SessionStart", source: "startup" });
  });

  it("JSON decisions: allow skips asking, a deny rule still wins, updatedInput is judged again", async () => {
    const decide = script(
      "decide",
      `const c = input.tool_input.command;
const out = c === "echo please" ? { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }
  : c === "rm -rf nothing" ? { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }
  : c === "echo swap" ? { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "echo swapped > swapped.txt" } } }
  : {};
process.stdout.write(JSON.stringify(out));`,
    );
    hooksConfig(
      { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: decide }] }] },
      { permissions: { deny: ["bash(rm -rf*)"] } },
    );
    e.provider.enqueue(
      openaiToolCalls([
        { id: "a", name: "bash", args: { command: "echo please" } },
        { id: "b", name: "bash", args: { command: "rm -rf nothing" } },
        { id: "c", name: "bash", args: { command: "echo swap" } },
      ]),
      openaiText("ok"),
    );
    // No --yes: what would ask is denied, so only the hook's allow lets `a` run.
    const run = await ternRun(e, []);
    expect(run.code, run.stderr).toBe(0);
    const result = (id: string) => run.events.find((ev) => ev.type === "tool_result" && ev.id === id);
    expect(result("a")).toMatchObject({ outcome: "ok" });
    expect(result("b").content).toContain("denied by rule");
    // The swapped command asks (it writes a file, no rule covers it), so headless it is denied.
    expect(result("c").outcome).toBe("denied");
    expect(existsSync(join(e.dirs.workspace, "swapped.txt"))).toBe(false);
    // As in Claude Code, PreToolUse sees every call, `b` too (the deny rule still refused it, whatever
    // the hook said); the hooks run side by side, in any order.
    expect(
      received("decide")
        .map((r) => r.tool_input.command)
        .sort(),
    ).toEqual(["echo please", "echo swap", "rm -rf nothing"]);
  });

  it("a UserPromptSubmit block refuses the prompt: nothing is sent, the reason is shown", async () => {
    const refuse = script(
      "refuse",
      `if (/secret/.test(input.prompt)) { process.stderr.write("no secrets"); process.exit(2); }`,
    );
    hooksConfig({ UserPromptSubmit: [{ hooks: [{ type: "command", command: refuse }] }] });
    const run = await ternRun(e, [], "tell me the secret");
    expect(run.code).toBe(1);
    expect(e.provider.requests).toHaveLength(0);
    expect(run.events.find((ev) => ev.type === "error").message).toContain("no secrets");
  });

  it("a hook that overstays its timeout is killed with its group and counts as a non-blocking error", async () => {
    const slow = script(
      "slow",
      `require("node:child_process").spawn("sleep", ["30"], { stdio: "ignore" }); setTimeout(() => {}, 30000);`,
    );
    hooksConfig({
      PreToolUse: [{ matcher: "bash", hooks: [{ type: "command", command: slow, timeout: 1 }] }],
    });
    e.provider.enqueue(
      openaiToolCalls([{ id: "s", name: "bash", args: { command: "echo still ran" } }]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.events.find((ev) => ev.type === "tool_result")).toMatchObject({ outcome: "ok" });
    expect(run.events.some((ev) => ev.type === "notice" && /timed out after 1s/.test(ev.text))).toBe(true);
    expect(run.events.find((ev) => ev.type === "hook")).toMatchObject({ decision: "error" });
  });

  it("an untrusted workspace's hooks never run; a trusted one's .claude/settings.json do", async () => {
    const marker = join(e.dirs.home, "ran.txt");
    mkdirSync(join(e.dirs.workspace, ".claude"), { recursive: true });
    writeFileSync(
      join(e.dirs.workspace, ".claude", "settings.json"),
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${marker}` }] }] },
      }),
    );
    mkdirSync(join(e.dirs.workspace, ".tern"), { recursive: true });
    writeFileSync(
      join(e.dirs.workspace, ".tern", "config.json"),
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${marker}` }] }] },
      }),
    );
    e.provider.enqueue(openaiText("ok"));
    const untrusted = await ternRun(e, []);
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const notices = untrusted.events.filter((ev) => ev.type === "notice").map((ev) => ev.text);
    expect(notices.some((n) => /\.claude\/settings\.json: hooks not run/.test(n))).toBe(true);
    expect(notices.some((n) => /hooks ignored/.test(n))).toBe(true);

    writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace] });
    e.provider.enqueue(openaiText("ok"));
    const trusted = await ternRun(e, []);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});

describe("tern hooks test and tern config check", () => {
  it("runs an event's hooks on a sample payload and says what each decided; config check lists them", async () => {
    const guard = script(
      "guard",
      `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "not today" } }));`,
    );
    hooksConfig({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard }] }] });
    const out = await e.run(["hooks", "test", "PreToolUse", "--tool", "bash"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`PreToolUse  ${guard}  exit 0  deny`);
    expect(out.stdout).toContain("permission: deny");
    expect(out.stdout).toContain("blocked: not today");
    expect(received("guard")[0]).toMatchObject({ tool_name: "Bash", tool_input: { command: "echo hello" } });
    const other = await e.run(["hooks", "test", "PreToolUse", "--tool", "read_file"]);
    expect(other.stdout).toContain("no hook runs for PreToolUse on read_file");
    const bad = await e.run(["hooks", "test", "Nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Nope is not a hook event");
    const check = await e.run(["config", "check"]);
    expect(check.stdout).toContain(`hook: PreToolUse "Bash" ${guard}  (${join(e.dirs.home, "config.json")})`);
  });
});
