// Sub-agents (R-AGENT-1) headless, through the built CLI against the fake provider: what a child
// is sent (its system prompt, its tools), what its record links to, what the parent gets back,
// and a failing child as a clear result of the parent's turn.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiError, openaiText, openaiToolCalls } from "../support/openai-script.js";
import {
  firstUserText,
  offeredTools,
  scriptBySession,
  sessionRecords,
  splitSessions,
} from "./subagents-support.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();

const task = (id: string, prompt: string, agent?: string) => ({
  id,
  name: "task",
  args: { description: "look around", prompt, ...(agent ? { agent } : {}) },
});

describe("the task tool (tern run)", () => {
  it("runs the explore agent as a child session: its prompt, its read-only tools, its record, its answer", async () => {
    const arrivals = scriptBySession(e, {
      "do it": [
        openaiToolCalls([task("t1", "find the answer", "explore")]),
        openaiText("the parent is done"),
      ],
      "find the answer": [openaiText("the answer is 42")],
    });
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n").length).toBeGreaterThan(1);

    const records = sessionRecords(e);
    expect(records.size).toBe(2);
    const { parent, children } = splitSessions(records);
    const [child] = children;
    expect(child.lines[0]).toMatchObject({
      type: "session_start",
      parent: { session: parent.id, turn: 1, agent: "explore", call: "t1" },
      model: "openai/mock-1",
    });

    // What the child was sent: its agent's prompt in the system message, read-only tools only.
    const childRequest = arrivals.find((a) => a.asker === "find the answer")!.request.body;
    expect(childRequest.messages[0].role).toBe("system");
    expect(childRequest.messages[0].content).toContain("You are an explore agent");
    expect(offeredTools(childRequest).sort()).toEqual(["bash", "glob", "grep", "lsp", "read_file"]);
    // The parent offers task, listing the agents.
    const parentRequest = arrivals[0].request.body;
    const taskDef = parentRequest.tools.find((t: any) => t.function.name === "task");
    expect(taskDef.function.description).toMatch(/explore: Read-only/);

    // What the parent got back: the child's answer and a line naming its session.
    const back = toolMessages(arrivals.at(-1)!.request.body).find((m) => m.id === "t1")!;
    expect(back.content).toContain("the answer is 42");
    expect(back.content).toContain(`session ${child.id}`);
    expect(parent.lines.find((l) => l.type === "tool_result" && l.id === "t1")).toMatchObject({
      outcome: "ok",
    });

    // --json: the child's events carry its session id; the parent's own do not.
    const childEvents = run.events.filter((ev) => ev.session === child.id);
    expect(childEvents.map((ev) => ev.type)).toEqual(expect.arrayContaining(["turn_start", "turn_end"]));
    expect(childEvents.every((ev) => ev.agent === "explore")).toBe(true);
    expect(run.end).toMatchObject({ stop_reason: "completed" });
    expect(run.events.filter((ev) => ev.type === "turn_end" && ev.session === undefined)).toHaveLength(1);
  });

  it("the default agent gets every tool but task; an unknown agent and a failing child are clear results", async () => {
    const arrivals = scriptBySession(e, {
      "do it": [
        openaiToolCalls([
          task("t1", "general work"),
          task("t2", "nobody", "nosuch"),
          task("t3", "will fail"),
        ]),
        openaiText("done"),
      ],
      "general work": [openaiText("did general work")],
      "will fail": [
        openaiError(400, { error: { message: "bad request for the child", type: "invalid_request_error" } }),
      ],
    });
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    const general = arrivals.find((a) => a.asker === "general work")!.request.body;
    const tools = offeredTools(general);
    expect(tools).toContain("write_file");
    expect(tools).not.toContain("task");
    const back = toolMessages(arrivals.at(-1)!.request.body);
    expect(back.find((m) => m.id === "t1")?.content).toContain("did general work");
    expect(back.find((m) => m.id === "t2")?.content).toMatch(
      /^task: no agent 'nosuch' \(agents: general, explore\)/,
    );
    expect(back.find((m) => m.id === "t3")?.content).toMatch(
      /sub-agent 'general' failed: .*bad request for the child/,
    );
    expect(run.end).toMatchObject({ stop_reason: "completed" });
  });

  it("without --json, a child's progress lines on stderr name its agent", async () => {
    scriptBySession(e, {
      "do it": [openaiToolCalls([task("t1", "look", "explore")]), openaiText("parent answer")],
      look: [
        openaiToolCalls([{ id: "g1", name: "glob", args: { pattern: "*.md" } }]),
        openaiText("child answer"),
      ],
    });
    const run = await e.run(["run", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, "do it"], {
      OPENAI_API_KEY: "sk-test-key",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("parent answer\n");
    expect(run.stderr).toMatch(/^→ task /m);
    expect(run.stderr).toMatch(/^\[explore\] → glob /m);
    // The child's work is its task call's progress too: tool calls so far, the newest.
    expect(run.stderr).toMatch(/^ {2}task 1 explore: glob \*\.md/m);
  });

  it("a child that reaches its budget returns an error result naming the budget; the parent goes on", async () => {
    writeUserConfig(e, { agents: { executionBudget: { maximumModelCalls: 1 } } });
    const arrivals = scriptBySession(e, {
      "do it": [openaiToolCalls([task("t1", "loop forever")]), openaiText("parent finished")],
      "loop forever": [
        openaiToolCalls([{ id: "g1", name: "glob", args: { pattern: "*" } }], undefined, "looking"),
      ],
    });
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    const back = toolMessages(arrivals.at(-1)!.request.body).find((m) => m.id === "t1")!;
    expect(back.content).toMatch(/stopped \(model_call_limit_reached\): it reached its model-call budget/);
    expect(back.content).toContain("looking");
    expect(arrivals.filter((a) => a.asker === "loop forever")).toHaveLength(1);
    expect(run.events.filter((ev) => ev.type === "tool_progress" && ev.session === undefined)).toEqual([
      { type: "tool_progress", id: "t1", name: "task", progress: 1, message: "general: glob *" },
    ]);
    expect(firstUserText(arrivals.at(-1)!.request.body)).toBe("do it");
    expect(run.stdout).toContain("parent finished");
  });
});

describe("agent files in a run", () => {
  it("a Claude Code agent in ~/.claude/agents: its body, its mapped tools and its model reach the child", async () => {
    const person = join(e.dirs.root, "person");
    mkdirSync(join(person, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(person, ".claude", "agents", "reviewer.md"),
      "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\nmodel: openai/mock-2\n---\nYou review code carefully.\n",
    );
    const arrivals = scriptBySession(e, {
      "do it": [openaiToolCalls([task("t1", "review src", "reviewer")]), openaiText("reviewed")],
      "review src": [openaiText("looks fine")],
    });
    const run = await ternRun(e, [], "do it", { env: { HOME: person } });
    expect(run.code).toBe(0);
    const child = arrivals.find((a) => a.asker === "review src")!.request.body;
    expect(child.model).toBe("mock-2");
    expect(child.messages[0].content).toContain("You review code carefully.");
    expect(offeredTools(child)).toEqual(["read_file", "grep"]);
    const parentTask = arrivals[0].request.body.tools.find((t: any) => t.function.name === "task");
    expect(parentTask.function.description).toContain("reviewer: Reviews code");
  });

  it("tern config check lists each agent and names a bad one's file and key", async () => {
    const dir = join(e.dirs.workspace, ".tern", "agents");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "bad.md"),
      "---\nname: bad\ndescription: d\ntools: Read, Teleport\nmodel: nowhere/x\n---\n",
    );
    const check = await e.run(["config", "check"], { OPENAI_API_KEY: "sk-test" });
    expect(check.code).toBe(0);
    const path = join(dir, "bad.md");
    expect(check.stdout).toContain(`agent: bad  (${path})`);
    expect(check.stdout).toContain(
      `agent note: ${path}: tools: 'Teleport' dropped: tern has no such tool; the agent runs with the rest`,
    );
    expect(check.stdout).toContain(
      `agent problem: ${path}: model: 'nowhere/x' is not configured (provider 'nowhere' is not in providers)`,
    );
    expect(check.stdout).toContain("agent: explore  (built in)");
  });
});

describe("the SubagentStop hook", () => {
  it("fires when a child would stop, with Claude Code's fields; exit 2 keeps the child going with its reason", async () => {
    const dir = join(e.dirs.workspace, "hooks");
    mkdirSync(dir, { recursive: true });
    const log = join(dir, "stop.log");
    const file = join(dir, "stop.cjs");
    writeFileSync(
      file,
      `const fs = require("node:fs");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(input) + "\\n");
if (!input.stop_hook_active) { process.stderr.write("check the tests once more"); process.exit(2); }`,
    );
    writeUserConfig(e, {
      hooks: {
        SubagentStop: [{ matcher: "explore", hooks: [{ type: "command", command: `node ${file}` }] }],
        Stop: [{ hooks: [{ type: "command", command: `echo parent-stop >> ${join(dir, "parent.log")}` }] }],
      },
    });
    const arrivals = scriptBySession(e, {
      "do it": [openaiToolCalls([task("t1", "explore it", "explore")]), openaiText("parent done")],
      "explore it": [openaiText("first answer"), openaiText("second answer")],
    });
    const run = await ternRun(e, []);
    expect(run.code, run.stderr).toBe(0);
    const { children } = splitSessions(sessionRecords(e));
    const child = children[0];
    const stops = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(stops).toHaveLength(2);
    expect(stops[0]).toMatchObject({
      hook_event_name: "SubagentStop",
      stop_hook_active: false,
      agent_id: child.id,
      agent_type: "explore",
      agent_transcript_path: join(child.dir, "record.jsonl"),
      last_assistant_message: "first answer",
      permission_mode: "plan",
    });
    expect(stops[1]).toMatchObject({ stop_hook_active: true, last_assistant_message: "second answer" });
    const childSecond = arrivals.filter((a) => a.asker === "explore it")[1].request.body;
    expect(JSON.stringify(childSecond.messages)).toContain("check the tests once more");
    const back = toolMessages(arrivals.at(-1)!.request.body)[0].content;
    expect(back).toContain("second answer");
    // The parent's Stop hook ran for the parent alone.
    expect(readFileSync(join(dir, "parent.log"), "utf8").trim().split("\n")).toEqual(["parent-stop"]);
  });
});

describe("MCP tools in children", () => {
  it("a child whose tools name no MCP tool starts no server; the default agent gets the parent's MCP tools", async () => {
    const server = join(import.meta.dirname, "..", "tools", "fixtures", "mcp-server.mjs");
    writeUserConfig(e, { toolSets: [{ name: "fx", command: process.execPath, args: [server] }] });
    const arrivals = scriptBySession(e, {
      "do it": [
        openaiToolCalls([task("t1", "explore it", "explore"), task("t2", "general it")]),
        openaiText("done"),
      ],
      "explore it": [openaiText("explored")],
      "general it": [openaiText("generally done")],
    });
    const run = await ternRun(e, []);
    expect(run.code, run.stderr).toBe(0);
    const parentTools = offeredTools(arrivals[0].request.body);
    expect(parentTools.some((t) => t.startsWith("fx__"))).toBe(true);
    const explore = offeredTools(arrivals.find((a) => a.asker === "explore it")!.request.body);
    expect(explore.some((t) => t.startsWith("fx__"))).toBe(false);
    const general = offeredTools(arrivals.find((a) => a.asker === "general it")!.request.body);
    expect(general.filter((t) => t.startsWith("fx__")).sort()).toEqual(
      parentTools.filter((t) => t.startsWith("fx__")).sort(),
    );
  });
});
