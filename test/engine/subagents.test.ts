// Sub-agents through the engine door (R-AGENT-1): a child's approvals reach the parent's front
// end naming the agent, a planning parent gives planning children, recursion is refused with a
// clear result (a child without `task` in its tools; depth 2), and `/agents` lists the agents.
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLineCommand } from "../../src/cli/line-commands.js";
import type { PendingCall } from "../../src/tools/executor.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { lineHost } from "../cli/line-support.js";
import { scriptBySession } from "../e2e/subagents-support.js";
import { toolMessages, useHarness } from "./harness.js";

const h = useHarness();
const task = (id: string, prompt: string, agent?: string) => ({
  id,
  name: "task",
  args: { description: "sub-task", prompt, ...(agent ? { agent } : {}) },
});

function writeAgent(name: string, front: string, body = "You help.") {
  const dir = join(h.dirs.workspace, ".tern", "agents");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${name}.md`),
    `---\nname: ${name}\ndescription: the ${name} agent\n${front}---\n${body}\n`,
  );
}

describe("sub-agents through the door", () => {
  it("a child's approval is asked in the parent's front end, naming the agent; a denial is the child's result", async () => {
    const asked: PendingCall[] = [];
    const t = await h.start({
      hooks: {
        approve: async (calls) => {
          asked.push(...calls);
          return new Map(calls.map((c) => [c.id, "denied" as const]));
        },
        denialMessage: "denied by the parent's person",
      },
    });
    const arrivals = scriptBySession(h, {
      parent: [openaiToolCalls([task("t1", "write it")]), openaiText("parent done")],
      "write it": [
        openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "x.txt", content: "x" } }]),
        openaiText("could not write"),
      ],
    });
    const outcome = await t.prompt("parent");
    expect(outcome.stopReason).toBe("completed");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ name: "write_file", agent: { name: "general" } });
    expect(asked[0].agent!.session).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(asked[0].reason).toMatch(/^sub-agent 'general'/);
    expect(existsSync(join(h.dirs.workspace, "x.txt"))).toBe(false);
    const childSecond = arrivals.filter((a) => a.asker === "write it")[1].request.body;
    expect(toolMessages(childSecond)[0].content).toBe("denied by the parent's person");
    // The parent's own front end saw none of the child's events (no `children` subscription).
    expect(t.events.filter((ev) => (ev as { session?: string }).session !== undefined)).toEqual([]);
  });

  it("a planning parent gives a planning child: its edit is refused, nothing changes", async () => {
    const t = await h.start({ config: (c) => (c.permissions.mode = "plan") });
    const arrivals = scriptBySession(h, {
      parent: [openaiToolCalls([task("t1", "edit it")]), openaiText("parent done")],
      "edit it": [
        openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "x.txt", content: "x" } }]),
        openaiText("planned only"),
      ],
    });
    await t.prompt("parent");
    expect(existsSync(join(h.dirs.workspace, "x.txt"))).toBe(false);
    const childSecond = arrivals.filter((a) => a.asker === "edit it")[1].request.body;
    expect(toolMessages(childSecond)[0].content).toMatch(/this session is planning \(plan mode\)/);
  });

  it("recursion: task only for an agent that lists it, at most two deep, each refusal a clear result", async () => {
    writeAgent("boss", "tools: task, read_file\n");
    const t = await h.start();
    const arrivals = scriptBySession(h, {
      parent: [
        openaiToolCalls([task("t1", "delegate", "boss"), task("t2", "try nesting")]),
        openaiText("done"),
      ],
      // depth 1, may start children: its child (depth 2, also boss) may not.
      delegate: [openaiToolCalls([task("c1", "deeper", "boss")]), openaiText("delegated")],
      deeper: [openaiToolCalls([task("d1", "deepest", "boss")]), openaiText("stopped at depth 2")],
      "try nesting": [openaiToolCalls([task("n1", "nested")]), openaiText("could not nest")],
    });
    const outcome = await t.prompt("parent");
    expect(outcome.stopReason).toBe("completed");
    const sent = (asker: string, n: number) =>
      toolMessages(arrivals.filter((a) => a.asker === asker)[n].request.body);
    expect(sent("deeper", 1)[0].content).toBe(
      "task: refused: sub-agents nest at most 2 deep, and this one is 2 deep",
    );
    expect(sent("try nesting", 1)[0].content).toBe(
      "task: refused: agent 'general' may not start sub-agents (its tools do not list task)",
    );
    expect(sent("delegate", 1)[0].content).toContain("stopped at depth 2");
    // The depth-2 child was not offered task at all.
    const deeperTools = arrivals
      .find((a) => a.asker === "deeper")!
      .request.body.tools.map((x: any) => x.function.name);
    expect(deeperTools).toEqual(["read_file"]);
  });

  it("an agent naming a model not configured returns its problems (a tool tern lacks is no problem)", async () => {
    writeAgent("broken", "tools: Read, WebSearch\nmodel: nowhere/x\n");
    const t = await h.start();
    const arrivals = scriptBySession(h, {
      parent: [openaiToolCalls([task("t1", "go", "broken")]), openaiText("done")],
    });
    await t.prompt("parent");
    const path = join(h.dirs.workspace, ".tern", "agents", "broken.md");
    const back = toolMessages(arrivals[1].request.body)[0].content;
    expect(back.split("\n")).toEqual([
      "task: agent 'broken' cannot run:",
      `${path}: model: 'nowhere/x' is not configured (provider 'nowhere' is not in providers)`,
    ]);
  });

  it("/agents lists name, description and source, with each agent's problems and dropped tools", async () => {
    writeAgent("broken", "tools: Nope\n");
    const t = await h.start();
    const { ctx, printed } = lineHost(h, t.session);
    await runLineCommand("/agents", { ...ctx, cwd: h.dirs.workspace });
    const path = join(h.dirs.workspace, ".tern", "agents", "broken.md");
    const lines = printed.at(-1)!.split("\n");
    expect(lines[0]).toBe(`broken   the broken agent  (project: ${path})`);
    expect(lines[1]).toBe(
      `         note: ${path}: tools: 'Nope' dropped: tern has no such tool; the agent runs with the rest`,
    );
    expect(lines[2]).toMatch(/^general {2}All your tools but task.*\(built in\)$/);
    expect(lines[3]).toMatch(/^explore {2}Read-only.*\(built in\)$/);
  });
});
