// Claude Code's permission rules hold in tern (R-WF-5), through the built CLI with real settings
// files: a user's `~/.claude/settings.json` and a project's `.claude/settings.json` /
// `.claude/settings.local.json`, written as Claude Code's permissions page shows them
// (code.claude.com/docs/en/permissions: `Read(./.env)`, `Read(./**/secrets/**)`, `WebFetch`,
// `Bash(npm run test:*)`, `defaultMode`). Deny and ask rules apply in an untrusted workspace too;
// a project's allow rules and defaultMode only in a trusted one; what tern cannot map is one line.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();

const HOME = () => join(e.dirs.root, "user");
function settings(dir: string, name: string, value: Record<string, unknown>): string {
  mkdirSync(join(dir, ".claude"), { recursive: true });
  const file = join(dir, ".claude", name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}
const userSettings = (v: Record<string, unknown>) => settings(HOME(), "settings.json", v);
const projectSettings = (v: Record<string, unknown>, name = "settings.json") =>
  settings(e.dirs.workspace, name, v);
const run = (args: string[]) => ternRun(e, args, "do it", { env: { HOME: HOME() } });
const result = (r: { events: any[] }, id: string) =>
  r.events.find((ev) => ev.type === "tool_result" && ev.id === id);
const notices = (r: { events: any[] }) => r.events.filter((ev) => ev.type === "notice").map((ev) => ev.text);
const sent = () => JSON.stringify(e.provider.requests.map((q) => q.body));

describe("Claude Code permission rules", () => {
  it("a user's deny of Read(./.env) and WebFetch holds with --yes; the .env text never reaches the model", async () => {
    userSettings({ permissions: { deny: ["Read(./.env)", "WebFetch"] } });
    writeFileSync(join(e.dirs.workspace, ".env"), "API_TOKEN=very-secret-value\n");
    e.provider.enqueue(
      openaiToolCalls([
        { id: "r", name: "read_file", args: { path: ".env" } },
        { id: "g", name: "grep", args: { pattern: "API", path: ".env" } },
        { id: "w", name: "web_fetch", args: { url: "http://127.0.0.1:9/" } },
        // A search of the whole workspace leaves the denied file out (Claude: Read rules cover Grep).
        { id: "all", name: "grep", args: { pattern: "API_TOKEN" } },
        // Nor does a listing name it (Claude: Read rules cover Glob).
        { id: "ls", name: "glob", args: { pattern: ".env*" } },
      ]),
      openaiText("ok"),
    );
    const r = await run(["--yes"]);
    expect(r.code, r.stderr).toBe(0);
    for (const id of ["r", "g", "w"]) expect(result(r, id)).toMatchObject({ outcome: "denied" });
    expect(result(r, "r").content).toContain("read_file(.env)");
    expect(result(r, "all")).toMatchObject({ outcome: "ok" });
    expect(result(r, "all").content).not.toContain("very-secret-value");
    expect(result(r, "ls")).toMatchObject({ outcome: "ok" });
    expect(JSON.stringify(result(r, "ls").content)).toContain('No files match \\".env*\\".');
    expect(sent()).not.toContain("very-secret-value");
    // `@.env` in the prompt is a read too: one line, nothing sent.
    const before = e.provider.requests.length;
    const mention = await ternRun(e, ["--yes"], "summarise @.env please", { env: { HOME: HOME() } });
    expect(mention.code).toBe(2);
    expect(mention.stderr.trim()).toBe(
      "tern: @.env: not attached: reading it is denied by rule read_file(.env)",
    );
    expect(e.provider.requests.length).toBe(before);
  });

  it("an untrusted project's deny and ask rules apply, its allow rules and defaultMode do not; trusted, they do", async () => {
    projectSettings({
      permissions: {
        deny: ["Read(./**/secrets/**)"],
        ask: ["Bash(git push:*)"],
        allow: ["Bash(mkdir:*)"],
        defaultMode: "acceptEdits",
      },
    });
    mkdirSync(join(e.dirs.workspace, "app", "secrets"), { recursive: true });
    writeFileSync(join(e.dirs.workspace, "app", "secrets", "key.txt"), "private-key-text\n");
    const calls = () =>
      openaiToolCalls([
        { id: "s", name: "read_file", args: { path: "app/secrets/key.txt" } },
        { id: "m", name: "bash", args: { command: "mkdir made" } },
        { id: "p", name: "bash", args: { command: "git push origin main" } },
        { id: "w", name: "write_file", args: { path: "notes.txt", content: "x\n" } },
      ]);
    e.provider.enqueue(calls(), openaiText("ok"));
    // No --yes: what asks is refused headless.
    const untrusted = await run([]);
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(result(untrusted, "s")).toMatchObject({ outcome: "denied" });
    expect(result(untrusted, "m")).toMatchObject({ outcome: "denied" });
    expect(result(untrusted, "w")).toMatchObject({ outcome: "denied" });
    expect(existsSync(join(e.dirs.workspace, "made"))).toBe(false);
    expect(sent()).not.toContain("private-key-text");
    const file = join(e.dirs.workspace, ".claude", "settings.json");
    expect(notices(untrusted)).toContain(
      `${file}: permissions.allow ignored: this workspace is not in trustedWorkspaces`,
    );
    expect(notices(untrusted)).toContain(
      `${file}: permissions.defaultMode ignored: this workspace is not in trustedWorkspaces`,
    );

    writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace] });
    e.provider.enqueue(calls(), openaiText("ok"));
    const trusted = await run([]);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(result(trusted, "s")).toMatchObject({ outcome: "denied" });
    expect(result(trusted, "m")).toMatchObject({ outcome: "ok" });
    expect(existsSync(join(e.dirs.workspace, "made"))).toBe(true);
    // acceptEdits → auto-edit: the write runs unasked; the ask rule still asks (and headless, is refused).
    expect(result(trusted, "w")).toMatchObject({ outcome: "ok" });
    expect(result(trusted, "p")).toMatchObject({ outcome: "denied" });
  });

  it("an ask rule asks even where the mode would allow everything (Claude's bypassPermissions)", async () => {
    userSettings({ permissions: { defaultMode: "bypassPermissions", ask: ["Bash(touch:*)"] } });
    e.provider.enqueue(
      openaiToolCalls([
        { id: "t", name: "bash", args: { command: "touch asked.txt" } },
        { id: "e", name: "bash", args: { command: "echo free > free.txt" } },
      ]),
      openaiText("ok"),
    );
    // No --yes: tern run answers every question with no, so the asked call is refused.
    const r = await run([]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(e.dirs.workspace, "asked.txt"))).toBe(false);
    expect(result(r, "t")).toMatchObject({ outcome: "denied" });
    expect(result(r, "e")).toMatchObject({ outcome: "ok" });
    expect(existsSync(join(e.dirs.workspace, "free.txt"))).toBe(true);
  });

  it("a rule tern cannot map is one line at start and in config check; config check shows every mapping with its file", async () => {
    const user = userSettings({
      permissions: { deny: ["WebSearch"], allow: ["Bash(npm run test:*)"] },
      model: "opus",
      statusLine: { type: "command", command: "echo status" },
    });
    const local = projectSettings(
      {
        permissions: { deny: ["NotebookEdit(x.ipynb)", "Edit(/src/**)"], additionalDirectories: ["../docs"] },
      },
      "settings.local.json",
    );
    e.provider.enqueue(openaiText("ok"));
    const r = await run([]);
    expect(r.code, r.stderr).toBe(0);
    const unmapped = `${user}: permissions.deny rule "WebSearch" NOT enforced by tern: tern has no tool like Claude Code's WebSearch`;
    expect(notices(r)).toContain(unmapped);
    expect(
      notices(r).some((n) =>
        n.startsWith(`${local}: permissions.deny rule "NotebookEdit(x.ipynb)" NOT enforced`),
      ),
    ).toBe(true);
    expect(
      notices(r).some((n) => n.startsWith(`${local}: permissions.additionalDirectories not applied`)),
    ).toBe(true);
    const check = await e.run(["config", "check"], { HOME: HOME() });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain(`claude settings: ${user}`);
    expect(check.stdout).toContain(
      `permissions.allow "Bash(npm run test:*)" → bash(npm run test), bash(npm run test *)`,
    );
    expect(check.stdout).toContain(`claude settings: ${local}`);
    expect(check.stdout).toContain(
      `permissions.deny "Edit(/src/**)" → edit_file(src/**), edit_lineno(src/**), write_file(src/**)`,
    );
    expect(check.stdout).toContain(unmapped);
    // Every key of the file: what was taken and what was not.
    expect(check.stdout).toContain(`claude settings: ${user}\n`);
    expect(check.stdout).toContain("  model: not taken: tern has no such setting\n");
    expect(check.stdout).toContain("  statusLine: taken\n");
    expect(check.stdout).toContain(
      '  permissions.deny "WebSearch" not taken: tern has no tool like Claude Code\'s WebSearch\n',
    );
    // The merged list names where its rules came from.
    expect(check.stdout).toMatch(
      new RegExp(`permissions\\.deny = .*edit_file\\(src/\\*\\*\\).*\\[${local.replaceAll(".", "\\.")}\\]`),
    );
  });
});
