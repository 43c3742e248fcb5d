// `tern run --json --yes` against a real HTTP server, multi-round tool use with
// every built-in file tool, exact tool results sent back, final text, exit 0, and a record that
// `--continue` resumes.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonEvents, runCli } from "../support/cli.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { toolMessages as toolMessageList, useE2E } from "./tools-support.js";

const e = useE2E();

const baseArgs = () => ["--model", "openai/mock-1", "--base-url", e.provider.baseUrl];
const run = (args: string[], env: Record<string, string> = { OPENAI_API_KEY: "x" }) => e.run(args, env);

/** The tool messages of a recorded request, by tool_call_id. */
const toolMessages = (body: any): Record<string, string> =>
  Object.fromEntries(toolMessageList(body).map((m) => [m.id, m.content]));

describe("tern run end to end", () => {
  it("runs multi-round tool use with every built-in file tool and resumes with --continue", async () => {
    writeFileSync(join(e.dirs.workspace, "notes.txt"), "alpha\nbeta\ngamma\n");
    e.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "bash", args: { command: "echo hello-from-bash" } },
        { id: "c2", name: "read_file", args: { path: "notes.txt" } },
        { id: "c3", name: "glob", args: { pattern: "*.txt" } },
      ]),
      openaiToolCalls([
        { id: "c4", name: "edit_file", args: { path: "notes.txt", old_string: "beta", new_string: "BETA" } },
        { id: "c5", name: "write_file", args: { path: "out/new.txt", content: "fresh\n" } },
      ]),
      openaiToolCalls([{ id: "c6", name: "grep", args: { pattern: "BETA|fresh" } }]),
      openaiText("All done."),
    );
    const result = await run(["run", "--json", "--yes", ...baseArgs(), "do the work"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const events = jsonEvents(result.stdout);
    expect(events[0]).toMatchObject({ type: "session", model: "openai/mock-1", resumed: false });
    const end = events.find((e) => e.type === "turn_end");
    expect(end).toMatchObject({
      turn: 1,
      stop_reason: "completed",
      rounds: 4,
      model_calls: 4,
      tool_calls: 6,
      tool_errors: 0,
    });
    expect(events.filter((e) => e.type === "usage")).toHaveLength(4);

    expect(readFileSync(join(e.dirs.workspace, "notes.txt"), "utf8")).toBe("alpha\nBETA\ngamma\n");
    expect(readFileSync(join(e.dirs.workspace, "out/new.txt"), "utf8")).toBe("fresh\n");

    // Exact tool results went back to the model, the same values as the tool_result events.
    const results = Object.fromEntries(
      events.filter((e) => e.type === "tool_result").map((e) => [e.id, e.content]),
    );
    const sent = {
      ...toolMessages(e.provider.requests[1].body),
      ...toolMessages(e.provider.requests[2].body),
      ...toolMessages(e.provider.requests[3].body),
    };
    for (const id of ["c1", "c2", "c3", "c4", "c5", "c6"]) expect(sent[id]).toBe(results[id]);
    expect(sent.c1).toContain("hello-from-bash");
    expect(sent.c2).toMatch(/1\talpha\n\s+2\tbeta/);
    expect(sent.c3).toContain("notes.txt");
    expect(sent.c6).toContain("notes.txt:2:BETA");
    expect(sent.c6).toContain("new.txt:1:fresh");

    // The final text is the assistant text; without --json only it reaches stdout.
    e.provider.enqueue(openaiText("Resumed fine."));
    const resumed = await run(["run", "--continue", ...baseArgs(), "and now?"]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe("Resumed fine.\n");
    const last = e.provider.requests.at(-1)!.body;
    // The resumed request carries the whole first turn: user, 4 assistants, 6 tool results, new user.
    const roles = last.messages.map((m: any) => m.role);
    expect(roles).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "tool",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(last.messages.at(-1).content).toBe("and now?");
    expect(last.messages[0]).toEqual(e.provider.requests[0].body.messages[0]);
  });

  it("prints only the final text on stdout and progress on stderr without --json", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "true" } }]),
      openaiText("Final answer."),
    );
    const result = await run(["run", "--yes", ...baseArgs(), "hi"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Final answer.\n");
    expect(result.stderr).toContain("bash");
  });

  it("denies calls that would ask when --yes is not given, with a result saying so", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "touch made.txt" } }]),
      openaiText("ok"),
    );
    const result = await run(["run", "--json", ...baseArgs(), "hi"]);
    expect(result.code).toBe(0);
    const sent = toolMessages(e.provider.requests[1].body);
    expect(sent.c1).toMatch(/without --yes/);
    const events = jsonEvents(result.stdout);
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ outcome: "denied" });
    expect(events.find((e) => e.type === "approval")).toMatchObject({ id: "c1", decision: "denied" });
  });

  it("reads the prompt from stdin with '-'", async () => {
    e.provider.enqueue(openaiText("from stdin"));
    const result = await runCli(["run", ...baseArgs(), "-"], {
      home: e.dirs.home,
      cwd: e.dirs.workspace,
      env: { OPENAI_API_KEY: "x" },
      stdin: "the prompt text\n",
    });
    expect(result.code).toBe(0);
    expect(e.provider.requests[0].body.messages.at(-1).content).toBe("the prompt text\n");
  });
});
