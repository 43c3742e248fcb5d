// A Claude Code agent file naming tools tern lacks runs with the rest (R-WF-7): `NotebookRead`
// and `WebSearch` are dropped with one notice each naming the file and the tool, `BashOutput`
// and `KillShell` map to tern's job tools, and the child is offered exactly what mapped.
// The agent file's shape is Claude Code's (code.claude.com/docs/en/sub-agents: front matter
// `name`, `description`, `tools` as a comma-separated list).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { offeredTools, scriptBySession } from "./subagents-support.js";
import { ternRun, toolMessages, useE2E } from "./tools-support.js";

const e = useE2E();

describe("Claude Code agents in tern", () => {
  it("an agent naming NotebookRead and WebSearch runs with Read, BashOutput and KillShell, and says what it dropped", async () => {
    const dir = join(e.dirs.workspace, ".claude", "agents");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "notebooks.md");
    writeFileSync(
      file,
      "---\nname: notebooks\ndescription: Reads notebooks\ntools: Read, NotebookRead, WebSearch, BashOutput, KillShell\n---\nYou read notebooks.\n",
    );
    const arrivals = scriptBySession(e, {
      "do it": [
        openaiToolCalls([
          {
            id: "t1",
            name: "task",
            args: { description: "read nb", prompt: "read the notebook", agent: "notebooks" },
          },
        ]),
        openaiText("parent done"),
      ],
      "read the notebook": [openaiText("the notebook says hi")],
    });
    const run = await ternRun(e, []);
    expect(run.code, run.stderr).toBe(0);
    const child = arrivals.find((a) => a.asker === "read the notebook")!.request.body;
    expect(offeredTools(child).sort()).toEqual(["job_kill", "job_output", "read_file"]);
    const back = toolMessages(arrivals.at(-1)!.request.body).find((m) => m.id === "t1")!;
    expect(back.content).toContain("the notebook says hi");
    const notices = run.events.filter((ev) => ev.type === "notice").map((ev) => ev.text);
    for (const tool of ["NotebookRead", "WebSearch"])
      expect(notices.filter((n) => n.includes(`'${tool}'`))).toEqual([
        `${file}: tools: '${tool}' dropped: tern has no such tool; the agent runs with the rest`,
      ]);
  });
});
