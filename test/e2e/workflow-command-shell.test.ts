// `!`cmd`` in a custom command (R-WF-2, Claude Code's bash execution in slash commands), through
// `tern run "/name"`: each runs before the prompt is sent and its output is inlined; the
// command's `allowed-tools` let a command run unasked, anything else is judged like any bash call
// (denied in `tern run` without --yes, a deny rule beats --yes), and the prompt says so.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();

function writeCommand(): void {
  // An attached file's text is never run, whatever it holds.
  writeFileSync(join(e.dirs.workspace, "notes.md"), "Attached: !`echo allowed from-the-file`\n");
  const dir = join(e.dirs.workspace, ".claude", "commands");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "gather.md"),
    [
      "---",
      "allowed-tools: Bash(echo allowed:*)",
      "description: Gather context",
      "---",
      "Allowed: !`echo allowed one`",
      "Other: !`echo other $((40 + 2))`",
      "Plain `code` and a lone ! stay. Topic: $ARGUMENTS @notes.md",
      "",
    ].join("\n"),
  );
}
const sentPrompt = (i = 0): string => {
  const user = e.provider.requests[i].body.messages.find((m: any) => m.role === "user");
  return typeof user.content === "string" ? user.content : user.content.map((p: any) => p.text).join("");
};

describe("!`cmd` in custom commands", () => {
  it("runs what allowed-tools allow; without --yes the rest is denied, and the prompt says so", async () => {
    writeCommand();
    // A workspace's allowed-tools grant only where it is trusted (§10; safety-trust-commands.test.ts).
    writeUserConfig(e, { trustedWorkspaces: [e.dirs.workspace] });
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "/gather tests");
    expect(run.code).toBe(0);
    const text = sentPrompt();
    expect(text).toContain("Allowed: allowed one\n");
    expect(text).toMatch(/Other: denied: tern run was started without --yes/);
    expect(text).not.toContain("other 42");
    expect(text).toContain("Plain `code` and a lone ! stay. Topic: tests @notes.md");
    expect(text).toContain("Attached: !`echo allowed from-the-file`");
    expect(text).not.toContain("Attached: allowed from-the-file");
  });

  it("--yes runs them all; a deny rule still refuses one", async () => {
    writeCommand();
    e.provider.enqueue(openaiText("ok"), openaiText("ok"));
    expect((await ternRun(e, ["--yes"], "/gather x")).code).toBe(0);
    expect(sentPrompt(0)).toContain("Allowed: allowed one\nOther: other 42\n");
    writeUserConfig(e, {
      trustedWorkspaces: [e.dirs.workspace],
      permissions: { deny: ["bash(echo other*)"] },
    });
    expect((await ternRun(e, ["--yes"], "/gather x")).code).toBe(0);
    const denied = sentPrompt(1);
    expect(denied).toContain("Allowed: allowed one\n");
    expect(denied).not.toContain("other 42");
    expect(denied).toMatch(/Other: denied by (a )?(deny )?rule/);
  });
});
