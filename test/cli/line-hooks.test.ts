// Hooks at the points where an interactive tern waits or takes more input (R-HOOK-1, R-HOOK-2),
// in `tern --plain` in a real pseudo-terminal: a follow-up that joins a running turn goes through
// UserPromptSubmit like a fresh prompt (and a block keeps it out), and Notification hears
// Claude Code's `idle_prompt` after an answer and tern's `limit_prompt` at a budget limit, each
// with `message` and `notification_type` (the matcher is the type).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { userTexts, useTui } from "../tui/support.js";
import { hookPayloads, hookScript } from "../support/hook-scripts.js";

const t = useTui();

const hooksDir = () => join(t.dirs.root, "hooks");
const script = (name: string, body: string): string => hookScript(hooksDir(), name, body);
const received = (name: string): any[] => hookPayloads(hooksDir(), name);
async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const plain = (config: Record<string, unknown>) =>
  t.start(["--plain"], { permissions: { mode: "yolo" }, ...config }, /tern · local\/mock-1 · session \S+/);

describe("hooks in an interactive session", () => {
  it("a follow-up joining the running turn goes through UserPromptSubmit; a blocked one stays out", async () => {
    const gate = script(
      "submit",
      `if (input.prompt.includes("forbidden")) { process.stderr.write("not that"); process.exit(2); }
console.log("NOTE-FOR " + input.prompt);`,
    );
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "sleep 0.8; echo one" } }]),
      openaiToolCalls([{ id: "c2", name: "bash", args: { command: "sleep 0.8; echo two" } }]),
      openaiText("saw them"),
    );
    const vt = await plain({
      hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: gate }] }] },
    });
    await vt.waitFor(/^› $/m);
    await vt.type("check A");
    await vt.press("enter");
    await vt.waitFor("→ bash");
    await vt.type("also check B");
    await vt.press("enter");
    await until(() => t.provider.requests.length >= 2, "the second request");
    await vt.type("forbidden C");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    await vt.waitFor("prompt blocked by a UserPromptSubmit hook: not that");
    expect(received("submit").map((p) => p.prompt)).toEqual(["check A", "also check B", "forbidden C"]);
    expect(received("submit")[1]).toMatchObject({ hook_event_name: "UserPromptSubmit" });
    const last = t.provider.requests.at(-1)!.body;
    expect(userTexts(last)).toEqual(expect.arrayContaining(["check A", "also check B"]));
    expect(JSON.stringify(last)).toContain("NOTE-FOR also check B");
    expect(JSON.stringify(last)).not.toContain("forbidden C");
  });

  it("Notification hears idle_prompt after an answer and limit_prompt at a budget limit", async () => {
    const idle = script("idle", "");
    const limit = script("limit", "");
    t.provider.enqueue(
      openaiText("first answer"),
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo one" } }]),
      openaiToolCalls([{ id: "c2", name: "bash", args: { command: "echo two" } }]),
    );
    const vt = await plain({
      idleNotificationSeconds: 1,
      executionBudget: { maximumToolCalls: 1 },
      hooks: {
        Notification: [
          { matcher: "idle_prompt", hooks: [{ type: "command", command: idle }] },
          { matcher: "limit_prompt", hooks: [{ type: "command", command: limit }] },
        ],
      },
    });
    await vt.waitFor(/^› $/m);
    // Idle since the start, before any answer: not yet waiting "for your input" after a response.
    await new Promise((r) => setTimeout(r, 1300));
    expect(received("idle")).toEqual([]);
    await vt.type("hi");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    await until(() => received("idle").length > 0, "the idle notification");
    expect(received("idle")[0]).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "idle_prompt",
      message: "tern is waiting for your input",
    });
    await vt.type("run two");
    await vt.press("enter");
    await vt.waitFor("Limit reached");
    await until(() => received("limit").length > 0, "the limit notification");
    expect(received("limit")[0]).toMatchObject({
      notification_type: "limit_prompt",
      message: "tern reached its limit of 1 tool calls for this turn and waits for your answer",
    });
    // Waiting at a limit prompt is no idle moment (the turn still runs): no second idle_prompt.
    await new Promise((r) => setTimeout(r, 1300));
    expect(received("idle")).toHaveLength(1);
    await vt.type("n");
    await vt.press("enter");
    await vt.waitFor(/— turn 2 · /);
  });
});
