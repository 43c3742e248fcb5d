// R-WF-1 as the provider sees it: instruction files from TERN_HOME and the repository root down
// to the workspace, each labelled with its path, `@` imports (not in code, cycles and escapes
// noticed), the 64 KB cap, and a subfolder's file joining after the prefix when a tool touches it.
import { mkdirSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { runCli } from "../support/cli.js";
import { jsonEvents } from "../support/cli.js";
import { ternRun, useE2E } from "./tools-support.js";
import { claudeRepo, expectInOrder, notices } from "./workflow-support.js";

const e = useE2E();
const ws = (...p: string[]) => join(e.dirs.workspace, ...p);

describe("instruction files (R-WF-1)", () => {
  it("carries TERN_HOME/AGENTS.md, then CLAUDE.md with its imports, each labelled with its path", async () => {
    const env = claudeRepo(e);
    writeFileSync(join(e.dirs.home, "AGENTS.md"), "Answer tersely. USER-MARKER\n");
    mkdirSync(join(env.HOME, ".claude"));
    writeFileSync(join(env.HOME, ".claude", "acme-notes.md"), "PERSONAL-MARKER\n");
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "hi", { env });
    expect(run.code).toBe(0);
    const system: string = e.provider.requests[0].body.messages[0].content;
    expectInOrder(system, [
      "You are tern",
      "# User instructions (from AGENTS.md in TERN_HOME)",
      `File: ${join(e.dirs.home, "AGENTS.md")}`,
      "USER-MARKER",
      "# Project instructions (from CLAUDE.md in the workspace)",
      `File: ${ws("CLAUDE.md")}`,
      "# Acme monorepo",
      `File: ${ws("README.md")}`,
      "README-MARKER",
      `File: ${ws("docs", "style.md")}`,
      "STYLE-MARKER",
      `File: ${ws("docs", "naming.md")}`,
      "NAMING-MARKER",
      "# Skills",
      "- changelog: Write a changelog entry from the recent commits",
    ]);
    expect(system).toContain(`# Imported by ${ws("CLAUDE.md")}`);
    // Imports inside code spans and blocks are text; a file outside the repository is not read.
    expect(system).not.toContain("NOT-IMPORTED-MARKER");
    expect(system).not.toContain("PERSONAL-MARKER");
    expect(system).not.toContain("API-MARKER");
    expect(system).not.toContain("SKILL-BODY-MARKER");
    const said = notices(run.events);
    expect(said).toContain(
      `${ws("docs", "naming.md")}: import cycle back to ${ws("docs", "style.md")} ignored`,
    );
    expect(
      said.some((n) => n.startsWith(`${ws("CLAUDE.md")}: import @~/.claude/acme-notes.md is outside`)),
    ).toBe(true);
    // The record's context line names every file loaded.
    const context = JSON.parse(
      execFileSync("sh", [
        "-c",
        `grep -h '"type":"context"' ${e.dirs.home}/sessions/*/*/record.jsonl`,
      ]).toString(),
    );
    expect(context.sources.map((s: any) => s.path)).toEqual([
      join(e.dirs.home, "AGENTS.md"),
      ws("CLAUDE.md"),
      ws("README.md"),
      ws("docs", "style.md"),
      ws("docs", "naming.md"),
      ws(".claude", "skills", "changelog", "SKILL.md"),
    ]);
  });

  it("started in a subfolder, reads the repository root's file first; AGENTS.md wins over CLAUDE.md", async () => {
    const env = claudeRepo(e);
    writeFileSync(ws("AGENTS.md"), "ROOT-AGENTS-MARKER\n");
    mkdirSync(ws("app"), { recursive: true });
    writeFileSync(ws("app", "CLAUDE.md"), "APP-MARKER\n");
    e.provider.enqueue(openaiText("ok"));
    const result = await runCli(
      ["run", "--json", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, "hi"],
      { home: e.dirs.home, cwd: ws("app"), env: { OPENAI_API_KEY: "sk-test", ...env } },
    );
    expect(result.code).toBe(0);
    const system: string = e.provider.requests[0].body.messages[0].content;
    expectInOrder(system, [
      "# Project instructions (from AGENTS.md in the repository root)",
      `File: ${ws("AGENTS.md")}`,
      "ROOT-AGENTS-MARKER",
      "# Project instructions (from CLAUDE.md in the workspace)",
      `File: ${ws("app", "CLAUDE.md")}`,
      "APP-MARKER",
    ]);
    expect(system).not.toContain("# Acme monorepo");
  });

  it("a subfolder's CLAUDE.md joins after the tool result that touched it; the prefix stays byte-identical", async () => {
    const env = claudeRepo(e);
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "packages/api/src/server.ts" } }]),
      openaiToolCalls([{ id: "c2", name: "read_file", args: { path: "packages/api/CLAUDE.md" } }]),
      openaiText("done"),
    );
    const run = await ternRun(e, [], "look at the api", { env });
    expect(run.code).toBe(0);
    const [a, b, c] = e.provider.requests;
    const prefix = (raw: string) => raw.slice(0, raw.indexOf('{"role":"user"'));
    expect(prefix(b.rawBody)).toBe(prefix(a.rawBody));
    expect(a.rawBody).not.toContain("API-MARKER");
    const roles = b.body.messages.map((m: any) => m.role);
    expect(roles).toEqual(["system", "user", "assistant", "tool", "user"]);
    const note = b.body.messages.at(-1).content;
    const text = typeof note === "string" ? note : note.map((p: any) => p.text).join("");
    expect(text).toContain(
      `# Project instructions (from packages/api/CLAUDE.md)\nFile: ${ws("packages", "api", "CLAUDE.md")}`,
    );
    expect(text).toContain("API-MARKER");
    // Once: touching the folder again adds nothing.
    expect(
      c.body.messages.filter((m: any) => JSON.stringify(m).includes("Fastify. API-MARKER\\n")).length,
    ).toBe(0);
    expect(c.body.messages.at(-1).role).toBe("tool");
    expect(notices(run.events)).toContain(`instructions loaded: ${ws("packages", "api", "CLAUDE.md")}`);
  });

  it("a subfolder's file joins when bash enters the folder or names a path under it", async () => {
    const env = claudeRepo(e);
    mkdirSync(ws("packages", "web", "src"), { recursive: true });
    writeFileSync(ws("packages", "web", "AGENTS.md"), "WEB-MARKER\n");
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "cd packages && ls api > /dev/null" } }]),
      openaiToolCalls([
        { id: "c2", name: "bash", args: { command: "wc -l 'packages/web/src/'*.ts || true" } },
      ]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes"], "look around", { env });
    expect(run.code).toBe(0);
    const [a, b, c] = e.provider.requests;
    const sent = (r: any) => JSON.stringify(r.body.messages);
    expect(sent(a)).not.toContain("API-MARKER");
    // `cd packages` then `api`: relative to the cd target.
    expect(sent(b)).toContain("API-MARKER");
    expect(sent(b)).not.toContain("WEB-MARKER");
    expect(sent(c)).toContain("WEB-MARKER");
    expect(notices(run.events)).toEqual(
      expect.arrayContaining([
        `instructions loaded: ${ws("packages", "api", "CLAUDE.md")}`,
        `instructions loaded: ${ws("packages", "web", "AGENTS.md")}`,
      ]),
    );
  });

  it("caps the whole at 64 KB with a notice naming the file cut; a FIFO is a notice, never a hang", async () => {
    writeFileSync(ws("AGENTS.md"), `${"x".repeat(70 * 1024)}\nTAIL-MARKER\n`);
    mkdirSync(ws(".git"));
    writeFileSync(join(e.dirs.home, "AGENTS.md"), "USER-MARKER\n");
    mkdirSync(ws("sub"));
    execFileSync("mkfifo", [ws("sub", "AGENTS.md")]);
    e.provider.enqueue(openaiText("ok"));
    const result = await runCli(
      ["run", "--json", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, "hi"],
      { home: e.dirs.home, cwd: ws("sub"), env: { OPENAI_API_KEY: "sk-test" } },
    );
    expect(result.code).toBe(0);
    const system: string = e.provider.requests[0].body.messages[0].content;
    expect(system).toContain("USER-MARKER");
    expect(system).not.toContain("TAIL-MARKER");
    expect(system).toContain(
      `[… cut here: instruction files are capped at 64 KB; read ${ws("AGENTS.md")} for the rest]`,
    );
    expect(Buffer.byteLength(system)).toBeLessThan(66 * 1024 + 2000);
    const said = notices(jsonEvents(result.stdout));
    expect(said).toContain(`instruction files are over 64 KB: ${ws("AGENTS.md")} was cut`);
    expect(said).toContain(`${ws("sub", "AGENTS.md")}: not a regular file; not loaded`);
  });

  it("compat.claude false reads no CLAUDE.md, Claude commands or skills; AGENTS.md still", async () => {
    const env = claudeRepo(e);
    writeFileSync(ws("AGENTS.md"), "OWN-MARKER\n");
    writeFileSync(join(e.dirs.home, "config.json"), JSON.stringify({ compat: { claude: false } }));
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "hi", { env });
    expect(run.code).toBe(0);
    const system: string = e.provider.requests[0].body.messages[0].content;
    expect(system).toContain("OWN-MARKER");
    expect(system).not.toContain("changelog");
    expect(system).not.toContain("# Acme monorepo");
    // .claude/commands is not read either: `/fix-issue` is then an unknown slash command (R-CLI-1).
    const refused = await ternRun(e, [], "/fix-issue 12", { env });
    expect(refused.code).toBe(2);
    // With Claude Code's folders off there is no such command, and tern says exactly that.
    expect(refused.stderr).toContain("/fix-issue: no such command");
    expect(e.provider.requests).toHaveLength(1);
  });
});
