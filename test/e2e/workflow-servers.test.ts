// R-WF-3 and R-WF-5 through the built CLI: a project's `.mcp.json` starts its servers only in a
// trusted workspace or once approved for it (a changed server asks again); otherwise they are
// listed as not started, with why. `tern config check` lists every workflow source it read.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { approveProjectServers } from "../../src/workspace/project-servers.js";
import { openaiText } from "../support/openai-script.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";
import { claudeRepo, notices } from "./workflow-support.js";

const SERVER = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
const e = useE2E();
const ws = (...p: string[]) => join(e.dirs.workspace, ...p);

function writeMcpJson(extra: Record<string, unknown> = {}): void {
  writeFileSync(
    ws(".mcp.json"),
    JSON.stringify({ mcpServers: { Files: { command: process.execPath, args: [SERVER] }, ...extra } }),
  );
}
const toolNames = (i = 0): string[] => e.provider.requests[i].body.tools.map((t: any) => t.function.name);

describe("project MCP servers (R-WF-3)", () => {
  it("an untrusted workspace starts none and says why", async () => {
    writeMcpJson({
      remote: { type: "http", url: "http://127.0.0.1:9/mcp" },
      old: { type: "sse", url: "http://x" },
    });
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "hi");
    expect(run.code).toBe(0);
    expect(toolNames().some((n) => n.startsWith("files__"))).toBe(false);
    const said = notices(run.events);
    expect(said).toContain(
      `${ws(".mcp.json")}: server Files not started: not approved for this workspace (not in trustedWorkspaces; approve with /mcp approve)`,
    );
    expect(said).toContain(
      `${ws(".mcp.json")}: server old not started: type "sse" is not supported (stdio or http)`,
    );
  });

  it("a trusted workspace starts them, named as tool sets", async () => {
    writeMcpJson();
    writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace] });
    e.provider.enqueue(openaiText("ok"));
    expect((await ternRun(e, [], "hi")).code).toBe(0);
    expect(toolNames()).toEqual(expect.arrayContaining(["files__echo", "read_file"]));
  });

  it("an approval kept under TERN_HOME starts them; a changed server needs approving again", async () => {
    writeMcpJson();
    expect(approveProjectServers(e.dirs.home, e.dirs.workspace, defaultConfig())).toEqual(["Files"]);
    e.provider.enqueue(openaiText("ok"), openaiText("again"));
    expect((await ternRun(e, [], "hi")).code).toBe(0);
    expect(toolNames(0)).toContain("files__echo");
    writeFileSync(
      ws(".mcp.json"),
      JSON.stringify({ mcpServers: { Files: { command: process.execPath, args: [SERVER, "--changed"] } } }),
    );
    const run = await ternRun(e, [], "hi");
    expect(toolNames(1).some((n) => n.startsWith("files__"))).toBe(false);
    expect(notices(run.events).some((n) => n.includes("server Files not started: not approved"))).toBe(true);
  });

  it("an MCP prompt runs as /mcp__<set>__<prompt>, arguments by position (R-WF-2)", async () => {
    writeMcpJson();
    writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace] });
    e.provider.enqueue(openaiText("ok"));
    expect((await ternRun(e, [], "/mcp__files__review src/a.ts error handling")).code).toBe(0);
    const user = e.provider.requests[0].body.messages.find((m: any) => m.role === "user");
    const text = typeof user.content === "string" ? user.content : user.content[0].text;
    expect(text).toBe("Review src/a.ts for error handling.");
    const missing = await ternRun(e, [], "/mcp__files__nope x");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      "/mcp__files__nope: no such MCP prompt (the servers offer /mcp__files__review)",
    );
    const noArgs = await ternRun(e, [], "/mcp__files__review");
    expect(noArgs.code).toBe(2);
    expect(noArgs.stderr).toContain("/mcp__files__review needs <file>");
    expect(e.provider.requests).toHaveLength(1);
  });

  it("compat.claude false ignores .mcp.json", async () => {
    writeMcpJson();
    writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace], compat: { claude: false } });
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "hi");
    expect(toolNames().some((n) => n.startsWith("files__"))).toBe(false);
    expect(notices(run.events).some((n) => n.includes(".mcp.json"))).toBe(false);
  });
});

describe("tern config check lists the workflow sources (R-WF-1, R-WF-5)", () => {
  it("names every instruction file, command, skill and server source with token estimates", async () => {
    const env = claudeRepo(e);
    writeFileSync(ws(".claude", "commands", "bad.md"), "---\n: [\n---\n");
    const result = await e.run(["config", "check"], env);
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(
      new RegExp(`instruction files:\\n  ${ws("CLAUDE.md")}  ~\\d+ tokens\\n  ${ws("README.md")}`),
    );
    expect(out).toMatch(new RegExp(`/git:pr  ${ws(".claude", "commands", "git", "pr.md")}  ~\\d+ tokens`));
    expect(out).toMatch(
      new RegExp(`changelog  ${ws(".claude", "skills", "changelog", "SKILL.md")}  ~\\d+ tokens`),
    );
    expect(out).toContain(`project MCP servers:\n  files  ${ws(".mcp.json")}  not started: not approved`);
    expect(out).toContain(`  issues  ${ws(".mcp.json")}  not started: not approved`);
    expect(out).toContain(`notice: ${ws(".claude", "commands", "bad.md")}: front matter is not valid YAML`);
  });
});
