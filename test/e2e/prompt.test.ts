// Prompt assembly (SPEC §8) as the provider sees it: a byte-identical prefix across the
// rounds of a turn and a resumed session, AGENTS.md / --system / skills index, and its size.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicStream } from "../support/anthropic-script.js";
import { runCli } from "../support/cli.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, useE2E } from "./tools-support.js";

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);

function writeProjectFiles(): void {
  writeFileSync(ws("AGENTS.md"), "Always run npm test before finishing.\n");
  mkdirSync(ws(".tern/skills/release"), { recursive: true });
  writeFileSync(
    ws(".tern/skills/release/SKILL.md"),
    "---\nname: release\ndescription: How to cut a release\n---\nSECRET-BODY step 1: bump the version.\n",
  );
}

/** The OpenAI body up to (not including) the first history message after the system message. */
function openaiPrefix(raw: string): string {
  const at = raw.indexOf('{"role":"user"');
  expect(at).toBeGreaterThan(0);
  return raw.slice(0, at);
}

describe("prompt assembly", () => {
  it("keeps system message and tools byte-identical across rounds and a resumed session", async () => {
    writeProjectFiles();
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "AGENTS.md" } }]),
      openaiText("first"),
      openaiText("second"),
    );
    const flags = ["--system", "Answer in English."];
    expect((await ternRun(e, flags)).code).toBe(0);
    expect((await ternRun(e, [...flags, "--continue"], "more")).code).toBe(0);
    const [a, b, c] = e.provider.requests;
    expect(openaiPrefix(b.rawBody)).toBe(openaiPrefix(a.rawBody));
    expect(openaiPrefix(c.rawBody)).toBe(openaiPrefix(a.rawBody));
    const toolsJson = (r: typeof a) => JSON.stringify(r.body.tools);
    expect(toolsJson(b)).toBe(toolsJson(a));
    expect(toolsJson(c)).toBe(toolsJson(a));

    const system: string = a.body.messages[0].content;
    expect(a.body.messages[0].role).toBe("system");
    expect(system).toContain("# Project instructions (from AGENTS.md in the workspace)");
    expect(system).toContain("Always run npm test before finishing.");
    expect(system).toContain("Answer in English.");
    expect(system).toMatch(/- release: How to cut a release \(.*\.tern\/skills\/release\/SKILL\.md\)/);
    expect(system).not.toContain("SECRET-BODY");
    // SPEC §8 order: base → AGENTS.md → --system → skills.
    const order = ["You are tern", "Project instructions", "Answer in English.", "# Skills"].map((s) =>
      system.indexOf(s),
    );
    expect(order).toEqual([...order].sort((x, y) => x - y));
  });

  it("keeps the Anthropic prefix (system + tools, before messages) byte-identical", async () => {
    writeProjectFiles();
    e.provider.enqueue(
      anthropicStream()
        .toolUse({ id: "t1", name: "glob", input: { pattern: "*.md" } })
        .stop("tool_use")
        .build(),
      anthropicStream().text("done").build(),
    );
    const result = await runCli(
      ["run", "--json", "--model", "anthropic/claude-test", "--base-url", e.provider.url, "hi"],
      { home: e.dirs.home, cwd: e.dirs.workspace, env: { ANTHROPIC_API_KEY: "sk-ant-test" } },
    );
    expect(result.code).toBe(0);
    const [a, b] = e.provider.requests;
    const prefix = (raw: string) => raw.slice(0, raw.indexOf('"messages":'));
    expect(prefix(a.rawBody).length).toBeGreaterThan(1000);
    expect(prefix(b.rawBody)).toBe(prefix(a.rawBody));
  });

  it("the first request's system prompt plus tool definitions stay within 8 KB", async () => {
    e.provider.enqueue(openaiText("hi"));
    expect((await ternRun(e, [])).code).toBe(0);
    const body = e.provider.requests[0].body;
    const system = Buffer.byteLength(body.messages[0].content);
    const tools = Buffer.byteLength(JSON.stringify(body.tools));
    console.log(`request prefix size: system ${system} B + tools ${tools} B = ${system + tools} B`);
    expect(system + tools).toBeLessThanOrEqual(8 * 1024);
  });
});
