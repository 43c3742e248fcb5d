// Budgets and finish handling through `tern run --json` (R-BUD-1/-2, R-TURN-2/-4,
// R-CLI-2 exit codes): tool-call, model-call and duration limits, truncation, content filter.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { recordLines, ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();

/** Running, not merely a zombie: a container's PID 1 may never reap orphans. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true;
  }
}

describe("tool-call budget", () => {
  it("maximumToolCalls 0 runs no tool: tool_call_limit_reached, exit 3", async () => {
    writeUserConfig(e, { executionBudget: { maximumToolCalls: 0 } });
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "touch ran.txt" } }], undefined, "Let me."),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(3);
    expect(existsSync(join(e.dirs.workspace, "ran.txt"))).toBe(false);
    expect(run.end).toMatchObject({ stop_reason: "tool_call_limit_reached", tool_calls: 0, rounds: 1 });
    expect(run.events.find((ev) => ev.type === "limit_reached")).toEqual({
      type: "limit_reached",
      limit: "tool_calls",
      used: 0,
      allowed: 0,
    });
    expect(run.events.some((ev) => ev.type === "tool_call" || ev.type === "tool_result")).toBe(false);
  });

  it("a batch that does not fit is left out of the record and of a resumed request", async () => {
    e.provider.enqueue(
      openaiStream()
        .reasoning("thinking it over")
        .text("Three at once.")
        .toolCall({ id: "c1", name: "bash", args: { command: "touch one.txt" } })
        .toolCall({ id: "c2", name: "bash", args: { command: "touch two.txt" } })
        .toolCall({ id: "c3", name: "bash", args: { command: "touch three.txt" } })
        .finish("tool_calls")
        .usage({ prompt_tokens: 10, completion_tokens: 5 })
        .build(),
    );
    const run = await ternRun(e, ["--yes", "--max-tool-calls", "2"]);
    expect(run.code).toBe(3);
    expect(run.end).toMatchObject({ stop_reason: "tool_call_limit_reached", tool_calls: 0, tool_errors: 0 });
    for (const f of ["one.txt", "two.txt", "three.txt"])
      expect(existsSync(join(e.dirs.workspace, f))).toBe(false);
    const assistant = recordLines(e).filter((l) => l.type === "assistant_message");
    expect(assistant).toHaveLength(1);
    expect(assistant[0]).toMatchObject({
      text: "Three at once.",
      reasoning: "thinking it over",
      toolCalls: [],
    });
    expect(JSON.stringify(recordLines(e))).not.toContain("touch one.txt");

    e.provider.enqueue(openaiText("resumed"));
    const resumed = await ternRun(e, ["--continue"], "go on");
    expect(resumed.code).toBe(0);
    const body = e.provider.requests.at(-1)!.body;
    expect(body.messages.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(body.messages[2].content).toBe("Three at once.");
    expect(body.messages[2].tool_calls).toBeUndefined();
  });
});

describe("model-call budget", () => {
  it("--max-model-calls 1 stops before round 2", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "x" } }]),
      openaiToolCalls([{ id: "c2", name: "read_file", args: { path: "y" } }]),
    );
    const run = await ternRun(e, ["--max-model-calls", "1"]);
    expect(run.code).toBe(3);
    expect(e.provider.requests).toHaveLength(1);
    expect(run.end).toMatchObject({
      stop_reason: "model_call_limit_reached",
      rounds: 1,
      model_calls: 1,
      tool_calls: 1,
    });
    expect(run.events.find((ev) => ev.type === "limit_reached")).toMatchObject({
      limit: "model_calls",
      used: 1,
      allowed: 1,
    });
    // The round's tool batch ran and its result is in the record before the stop.
    const lines = recordLines(e);
    expect(lines.filter((l) => l.type === "tool_result")).toHaveLength(1);
    expect(lines.at(-1)).toMatchObject({ type: "turn_end", stopReason: "model_call_limit_reached" });
  });
});

describe("duration budget", () => {
  it("stops a long bash call at the duration, kills its process group, and leaves a resumable record", async () => {
    e.provider.enqueue(
      openaiToolCalls([
        // Ten minutes: only the duration limit can end this call before the run is killed
        // (code null) at 20 s; 4 s leaves a loaded machine time to reach the tool call.
        { id: "c1", name: "bash", args: { command: "sleep 600 & echo $! > sleep.pid; wait" } },
      ]),
    );
    const run = await ternRun(e, ["--yes", "--max-duration", "4"], "wait", { timeoutMs: 20_000 });
    expect(run.code).toBe(3);
    expect(run.end).toMatchObject({ stop_reason: "duration_limit_reached", tool_calls: 1 });
    const pid = Number(readFileSync(join(e.dirs.workspace, "sleep.pid"), "utf8"));
    expect(pid).toBeGreaterThan(0);
    // SIGTERM to the group ends sleep at once; give the kernel a moment to reap it.
    for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
    const result = recordLines(e).find((l) => l.type === "tool_result");
    expect(result.content[0].text).toContain("process group was killed");

    e.provider.enqueue(openaiText("resumed"));
    const resumed = await ternRun(e, ["--continue"], "again");
    expect(resumed.code).toBe(0);
    const sent = toolMessages(e.provider.requests.at(-1)!.body);
    expect(sent.map((m) => m.id)).toEqual(["c1"]);
  });

  it("stops a stalled stream at the duration", async () => {
    // A stream that stalls for good under a ten-minute idle timeout: only the duration limit can
    // end it before the run is killed (code null) at 20 s.
    writeUserConfig(e, { streamIdleTimeoutSeconds: 600 });
    e.provider.enqueue(openaiStream().text("partial").finish("stop").stallAfter(2).build());
    const run = await ternRun(e, ["--max-duration", "1"], "hi", { timeoutMs: 20_000 });
    expect(run.code).toBe(3);
    expect(run.end).toMatchObject({ stop_reason: "duration_limit_reached", rounds: 0 });
    expect(run.events.find((ev) => ev.type === "limit_reached")).toEqual({
      type: "limit_reached",
      limit: "duration",
      used: 1,
      allowed: 1,
    });
    // The partial answer never becomes a committed assistant message.
    expect(recordLines(e).some((l) => l.type === "assistant_message")).toBe(false);
  });
});

describe("finish reasons", () => {
  it("length drops the tool calls, keeps the text and stops output_truncated with 0 continues", async () => {
    e.provider.enqueue(
      openaiStream()
        .text("cut off here")
        .toolCall({ id: "c1", name: "bash", args: { command: "touch t.txt" } })
        .finish("length")
        .build(),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(3);
    expect(run.end).toMatchObject({ stop_reason: "output_truncated", tool_calls: 0, rounds: 1 });
    expect(existsSync(join(e.dirs.workspace, "t.txt"))).toBe(false);
    const assistant = recordLines(e).find((l) => l.type === "assistant_message");
    expect(assistant).toMatchObject({ text: "cut off here", toolCalls: [], finish: "length" });
  });

  it("maxTruncationContinues 2 appends a notice and runs up to 2 more rounds", async () => {
    writeUserConfig(e, { maxTruncationContinues: 2 });
    const cut = (t: string) => openaiStream().text(t).finish("length").build();
    e.provider.enqueue(cut("part 1"), cut("part 2"), cut("part 3"), openaiText("never asked"));
    const run = await ternRun(e, []);
    expect(run.code).toBe(3);
    expect(e.provider.requests).toHaveLength(3);
    expect(run.end).toMatchObject({ stop_reason: "output_truncated", rounds: 3 });
    const second = e.provider.requests[1].body.messages;
    expect(second.at(-2)).toMatchObject({ role: "assistant", content: "part 1" });
    expect(second.at(-1).role).toBe("user");
    expect(second.at(-1).content).toMatch(/cut off at the output token limit/);
    expect(run.events.filter((ev) => ev.type === "notice" && /cut off/.test(ev.text))).toHaveLength(2);
  });

  it("a continue that then finishes normally completes the turn", async () => {
    writeUserConfig(e, { maxTruncationContinues: 1 });
    e.provider.enqueue(openaiStream().text("half").finish("length").build(), openaiText(" and the rest"));
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    expect(run.end).toMatchObject({ stop_reason: "completed", rounds: 2 });
  });

  it("tern run prints the whole answer of a continued reply, every round's text, not the last only", async () => {
    writeUserConfig(e, { maxTruncationContinues: 2 });
    e.provider.enqueue(
      openaiStream().text("The first half, ").finish("length").build(),
      openaiStream().text("the middle, ").finish("length").build(),
      openaiText("and the end."),
    );
    const plain = await e.run(["run", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, "go"], {
      OPENAI_API_KEY: "sk-test-key",
    });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toBe("The first half, the middle, and the end.\n");
  });

  it("content_filter stops content_filtered (exit 3), keeping the text", async () => {
    e.provider.enqueue(openaiStream().text("I can't").finish("content_filter").build());
    const run = await ternRun(e, []);
    expect(run.code).toBe(3);
    expect(run.end.stop_reason).toBe("content_filtered");
    expect(recordLines(e).find((l) => l.type === "assistant_message").text).toBe("I can't");
  });

  it("an unknown finish reason fails the turn with the raw reason (exit 1)", async () => {
    e.provider.enqueue(openaiStream().text("hmm").finish("weird_reason").build());
    const run = await ternRun(e, []);
    expect(run.code).toBe(1);
    expect(run.end).toMatchObject({
      stop_reason: "failed",
      error: { class: "finish_reason", message: "Model stopped with finish reason 'weird_reason'" },
    });
    expect(run.events.find((ev) => ev.type === "error")).toMatchObject({
      message: "Model stopped with finish reason 'weird_reason'",
    });
  });
});
