// The `statusLine` command (R-UI-23) in a real pseudo-terminal: Claude Code's setting shape, the
// session's state as JSON on stdin in Claude Code's field names, the first output line shown
// without its control sequences, run again as the session changes; a failing or slow command
// keeps the last good line, says why once, and never holds up typing. With `compat.claude` the
// setting is read from Claude Code's settings files, a workspace's only when it is trusted.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { styleOf, useTui } from "./support.js";

const t = useTui();
/** The greeting's key line: the built-in status line may already be replaced when the test looks. */
const READY = /Enter send · /;
const lastRow = (screen: string[]) => screen.filter((l) => l.trim()).at(-1) ?? "";

/** A status line script in the temp root; `$OUT` is where it may leave what it read. */
function script(name: string, body: string): string {
  const file = join(t.dirs.root, name);
  writeFileSync(file, `OUT=${JSON.stringify(t.dirs.root)}\n${body}\n`);
  return `sh ${JSON.stringify(file)}`;
}

describe("statusLine command", () => {
  it("shows the first line, cleaned, fed the session as Claude Code's JSON, and runs again after a turn", async () => {
    const command = script(
      "line.sh",
      `cat > "$OUT/input.json"; echo run >> "$OUT/runs"; printf %s "$CLAUDE_PROJECT_DIR" > "$OUT/project-dir"
printf '\\033[31mmy status\\033[0m runs=%s\\033]0;title\\007\\nsecond line\\n' "$(wc -l < "$OUT/runs" | tr -d ' ')"`,
    );
    t.provider.enqueue(openaiText("answered"));
    const vt = await t.start([], { statusLine: { type: "command", command, padding: 2 } }, READY);
    await vt.waitForScreen(/^ {2}my status runs=1 *$/m);
    expect(lastRow(vt.screen())).toBe("  my status runs=1");
    expect(vt.screen().join("\n")).not.toContain("second line");
    expect(vt.screen().join("\n")).not.toMatch(/context \d+% · \d+ tokens/);
    // Its colour and title sequence never reach the terminal.
    expect(styleOf(vt, "my status")?.fg).toBe(-1);
    expect(vt.raw).not.toContain("title");

    await vt.type("hello");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    await vt.waitForScreen(/my status runs=[2-9]/, 5000);
    // A run may start between the prompt and the answer's usage: the one after it has the tokens.
    const input = await vi.waitFor(
      () => {
        const read = JSON.parse(readFileSync(join(t.dirs.root, "input.json"), "utf8"));
        expect(read.context_window.total_output_tokens).toBeGreaterThan(0);
        return read;
      },
      { timeout: 5000, interval: 100 },
    );
    expect(input).toMatchObject({
      hook_event_name: "Status",
      session_id: expect.stringMatching(/^\d{8}-\d{6}-/),
      cwd: t.dirs.workspace,
      model: { id: "local/mock-1", display_name: "local/mock-1" },
      workspace: { current_dir: t.dirs.workspace, project_dir: t.dirs.workspace },
      cost: { total_cost_usd: null },
      context_window: { context_window_size: 128000 },
    });
    expect(input.context_window.total_input_tokens).toBeGreaterThan(0);
    expect(input.context_window.total_output_tokens).toBeGreaterThan(0);
    // As Claude Code does, so `$CLAUDE_PROJECT_DIR/.claude/status_lines/x.py` resolves.
    expect(readFileSync(join(t.dirs.root, "project-dir"), "utf8")).toBe(t.dirs.workspace);
  });

  it("tells a script what Claude Code does: transcript, lines added and removed, API time, cache use", async () => {
    // A real script that keeps what it read and prints the line counts it was told.
    const command = script(
      "dump.sh",
      `cat > "$OUT/dump.json"
field() { grep -o "\\"$1\\":[0-9]*" "$OUT/dump.json" | cut -d: -f2; }
printf 'lines %s %s out %s\\n' "$(field total_lines_added)" "$(field total_lines_removed)" "$(field output_tokens)"`,
    );
    writeFileSync(join(t.dirs.workspace, "a.txt"), "one\ntwo\nthree\n");
    t.provider.enqueue(openaiToolCalls([{ id: "r1", name: "read_file", args: { path: "a.txt" } }]));
    t.provider.enqueue(
      openaiToolCalls([
        // "two" becomes two lines: +2 -1; a new three-line file: +3.
        { id: "e1", name: "edit_file", args: { path: "a.txt", old_string: "two", new_string: "2\n2b" } },
        { id: "w1", name: "write_file", args: { path: "b.txt", content: "x\ny\nz\n" } },
        // Refused (a.txt has no "nine"): counts nothing.
        { id: "e2", name: "edit_file", args: { path: "a.txt", old_string: "nine", new_string: "9" } },
      ]),
    );
    t.provider.enqueue(
      openaiStream()
        .delay(40)
        .text("all done")
        .finish("stop")
        .usage({ prompt_tokens: 400, completion_tokens: 7, cached_tokens: 300 })
        .build(),
    );
    const vt = await t.start(["--mode", "yolo"], { statusLine: { type: "command", command } }, READY);
    // The mode (not ask) stays beside the command's line.
    await vt.waitForScreen(/^lines 0 0 out +· yolo *$/m);
    await vt.type("edit them");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    // The run after the last request: its usage is the newest.
    await vt.waitForScreen(/^lines 5 1 out 7 · yolo *$/m, 5000);
    expect(readFileSync(join(t.dirs.workspace, "a.txt"), "utf8")).toBe("one\n2\n2b\nthree\n");
    const input = JSON.parse(readFileSync(join(t.dirs.root, "dump.json"), "utf8"));
    // The transcript is the session's own record: its first line starts this session.
    const first = JSON.parse(readFileSync(input.transcript_path, "utf8").split("\n")[0]);
    expect(first).toMatchObject({ type: "session_start", id: input.session_id });
    expect(input).toMatchObject({
      hook_event_name: "Status",
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      output_style: { name: "default" },
      exceeds_200k_tokens: false,
      cost: { total_lines_added: 5, total_lines_removed: 1 },
      context_window: {
        current_usage: {
          input_tokens: 100,
          output_tokens: 7,
          cache_read_input_tokens: 300,
          cache_creation_input_tokens: 0,
        },
      },
    });
    // Three requests, the last streamed over several 40 ms frames: real time, within the session's.
    expect(input.cost.total_api_duration_ms).toBeGreaterThanOrEqual(40);
    expect(input.cost.total_api_duration_ms).toBeLessThanOrEqual(input.cost.total_duration_ms);
  });

  it("a failing command says why once and the built-in status line stays", async () => {
    const command = script("fail.sh", "echo boom >&2; exit 3");
    const vt = await t.start([], { statusLine: { type: "command", command } }, READY);
    await vt.waitFor("statusLine: the command exited with 3: boom; the last line it printed stays");
    expect(lastRow(vt.screen())).toMatch(/context 0% · 0 tokens/);
  });

  it("a slow command is stopped after 1 s, keeps the last good line, and never holds up typing", async () => {
    const command = script(
      "slow.sh",
      `echo run >> "$OUT/slow-runs"
if [ "$(wc -l < "$OUT/slow-runs")" -gt 1 ]; then sleep 30; fi
echo good line`,
    );
    t.provider.enqueue(openaiText("ok"));
    const vt = await t.start([], { statusLine: { type: "command", command } }, READY);
    await vt.waitForScreen(/^good line *$/m);
    await vt.type("go");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    // The second run sleeps: typing goes on meanwhile, then the timeout is reported once.
    await vt.type("typed while it runs");
    await vt.waitForScreen(/│ › typed while it runs *│/);
    await vt.waitFor("statusLine: the command took longer than 1 s; the last line it printed stays", 5000);
    expect(lastRow(vt.screen())).toBe("good line");
  });

  it("reads Claude Code's statusLine: ~/.claude always, the workspace's only when trusted", async () => {
    const home = join(t.dirs.root, "user-home");
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(
      join(home, ".claude", "settings.json"),
      JSON.stringify({ statusLine: { type: "command", command: "echo from claude home" } }),
    );
    mkdirSync(join(t.dirs.workspace, ".claude"), { recursive: true });
    const project = join(t.dirs.workspace, ".claude", "settings.json");
    writeFileSync(
      project,
      JSON.stringify({ statusLine: { type: "command", command: "echo from the repo" } }),
    );
    const vt = await t.start([], {}, READY, { HOME: home });
    await vt.waitForScreen(/^from claude home *$/m);
    // The notice names the file (wrapped over rows at this width).
    expect(vt.lines().join("")).toContain(
      `${project}: statusLine not run: this workspace is not in trustedWorkspaces`,
    );
    expect(vt.text()).not.toContain("from the repo");

    const env = { HOME: home };
    const trusted = loadConfig({ home: t.dirs.home, cwd: t.dirs.workspace, env, flags: {} });
    expect(trusted.config.statusLine?.command).toBe("echo from claude home");
    writeFileSync(
      join(t.dirs.home, "config.json"),
      JSON.stringify({ trustedWorkspaces: [t.dirs.workspace] }),
    );
    const loaded = loadConfig({ home: t.dirs.home, cwd: t.dirs.workspace, env, flags: {} });
    expect(loaded.config.statusLine?.command).toBe("echo from the repo");
    expect(loaded.sources["statusLine.command"]).toBe(project);
    // tern's own .tern/config.json of an untrusted workspace cannot set one either.
    writeFileSync(join(t.dirs.home, "config.json"), "{}");
    mkdirSync(join(t.dirs.workspace, ".tern"), { recursive: true });
    writeFileSync(
      join(t.dirs.workspace, ".tern", "config.json"),
      JSON.stringify({ statusLine: { type: "command", command: "echo tern repo" } }),
    );
    const untrusted = loadConfig({ home: t.dirs.home, cwd: t.dirs.workspace, env, flags: {} });
    expect(untrusted.config.statusLine?.command).toBe("echo from claude home");
    expect(untrusted.warnings).toContain(
      ".tern/config.json: statusLine ignored: this workspace is not in trustedWorkspaces (its command never runs)",
    );
  });

  it("a statusLine of the wrong shape is one line naming the key", async () => {
    const vt = await t.start([], { statusLine: { type: "command", command: "" } }, /statusLine/);
    expect(vt.text()).toMatch(/config\.json: statusLine\.command: must be a non-empty string/);
  });
});
