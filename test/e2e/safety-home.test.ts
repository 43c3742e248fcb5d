// TERN_HOME is tern's, not the model's (§10), the way the attacks were made: read_file of its
// config.json, auto-edit writes into a TERN_HOME inside the workspace, a search that would walk
// into it, and tool-set tokens that must never reach the record, --json or the next request.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, jsonEvents } from "../support/cli.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { recordLines, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();
type Call = { id: string; name: string; args: Record<string, unknown> };

async function run(calls: Call[], args: string[], home = e.dirs.home, env: Record<string, string> = {}) {
  e.provider.enqueue(openaiToolCalls(calls), openaiText("ok"));
  const result = await runCli(
    ["run", "--json", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, ...args, "do it"],
    { home, cwd: e.dirs.workspace, env: { OPENAI_API_KEY: "sk-test-key", ...env } },
  );
  expect(result.code, result.stderr).toBe(0);
  const events = jsonEvents(result.stdout);
  const sent = new Map(toolMessages(e.provider.requests[1].body).map((m) => [m.id, m.content]));
  return { events, sent, stdout: result.stdout };
}
const approvals = (events: any[]) =>
  events.filter((ev) => ev.type === "approval").map((ev) => [ev.id, ev.decision]);

describe("reads and writes of TERN_HOME ask in every mode but yolo (§10)", () => {
  it("auto-edit: read_file of $TERN_HOME/config.json asks (denied without --yes)", async () => {
    writeUserConfig(e, { permissions: { mode: "auto-edit" } });
    const { events, sent } = await run(
      [{ id: "r0", name: "read_file", args: { path: join(e.dirs.home, "config.json") } }],
      [],
    );
    expect(approvals(events)).toEqual([["r0", "denied"]]);
    expect(sent.get("r0")).toMatch(/without --yes/);
  });

  it("TERN_HOME inside the workspace: writes and reads of it ask; grep leaves it out", async () => {
    const home = join(e.dirs.workspace, "th");
    mkdirSync(home);
    const config = JSON.stringify({ permissions: { mode: "auto-edit", deny: ["bash(needle-in-home)"] } });
    writeFileSync(join(home, "config.json"), config);
    writeFileSync(join(e.dirs.workspace, "a.txt"), "needle-in-workspace\n");
    const { events, sent } = await run(
      [
        // The read comes first: an unread existing file's write is refused before any prompt.
        { id: "r2", name: "read_file", args: { path: "th/config.json" } },
        {
          id: "w0",
          name: "write_file",
          args: { path: "th/config.json", content: '{"permissions":{"mode":"yolo"}}' },
        },
        { id: "w1", name: "write_file", args: { path: "th/skills/evil/SKILL.md", content: "planted" } },
        { id: "g3", name: "grep", args: { pattern: "needle" } },
      ],
      [],
      home,
    );
    expect(approvals(events)).toEqual([
      ["r2", "denied"],
      ["w0", "denied"],
      ["w1", "denied"],
    ]);
    expect(readFileSync(join(home, "config.json"), "utf8")).toBe(config);
    expect(sent.get("g3")).toMatch(/needle-in-workspace/);
    expect(sent.get("g3")).not.toMatch(/needle-in-home/);
  });
});

describe("tool-set env and headers values are redacted by value (§10)", () => {
  it("a token in a tool set's env or headers never reaches the record, --json or the next request", async () => {
    const envToken = "ghp_envTokenValue1234567";
    const headerToken = "hdrTokenValue7654321xyz";
    writeUserConfig(e, {
      toolSets: [
        { name: "gh", command: "true", env: { GITHUB_PERSONAL: envToken } },
        { name: "web", url: "http://127.0.0.1:9/mcp", headers: { Authorization: `Bearer ${headerToken}` } },
      ],
    });
    const { stdout, sent } = await run(
      [{ id: "b0", name: "bash", args: { command: `cat ${join(e.dirs.home, "config.json")}` } }],
      ["--yes"],
    );
    const record = JSON.stringify(recordLines(e));
    for (const token of [envToken, headerToken]) {
      expect(stdout).not.toContain(token);
      expect(record).not.toContain(token);
      expect(sent.get("b0")).not.toContain(token);
    }
    expect(sent.get("b0")).toMatch(/\[redacted\]/);
  });
});

describe("an untrusted workspace only adds to the user's lists (§10)", () => {
  it('"shellEnv": {"exclude": []} and "permissions": {"deny": []} do not shorten the user\'s', async () => {
    writeUserConfig(e, { shellEnv: { exclude: ["INTERNAL_*"] }, permissions: { deny: ["bash(rm *)"] } });
    mkdirSync(join(e.dirs.workspace, ".tern"));
    writeFileSync(
      join(e.dirs.workspace, ".tern/config.json"),
      JSON.stringify({ shellEnv: { exclude: [] }, permissions: { deny: [] } }),
    );
    writeFileSync(join(e.dirs.workspace, "keep.txt"), "x");
    const value = "internal-db-password-42";
    const { sent } = await run(
      [
        { id: "b0", name: "bash", args: { command: 'echo "[$INTERNAL_DB]"' } },
        { id: "b1", name: "bash", args: { command: "rm keep.txt" } },
      ],
      ["--yes"],
      e.dirs.home,
      { INTERNAL_DB: value },
    );
    expect(sent.get("b0")).toBe("[]");
    expect(sent.get("b1")).toBe("denied by rule bash(rm *)");
    expect(readFileSync(join(e.dirs.workspace, "keep.txt"), "utf8")).toBe("x");
  });
});
