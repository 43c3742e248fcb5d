// Busy-time behaviour of the Ink UI in a real pseudo-terminal: follow-up queue, empty Enter,
// Ctrl+C, retry countdown and the /btw side panel.
import { describe, expect, it } from "vitest";
import { openaiError, openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { countLines, userTexts, useTui } from "./support.js";

const t = useTui();

/** A turn that streams slowly, with a follow-up queued behind it. */
async function slowTurnWithQueue() {
  t.provider.enqueue(openaiStream().text("a").text("b").text("c").finish("stop").delay(1500).build());
  const vt = await t.start();
  await vt.type("slow one");
  await vt.press("enter");
  await vt.waitFor("Thinking");
  await vt.type("kept for later");
  await vt.press("enter");
  await vt.waitFor("queued: kept for later");
  return vt;
}

describe("tern interactive UI while busy", () => {
  it("queues a follow-up typed during a tool batch and sends it after the batch", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "sleep 1" } }]),
      openaiText("saw the follow-up"),
    );
    const vt = await t.start(["--yes"]);
    await vt.type("start");
    await vt.press("enter");
    await vt.waitFor("Running bash");
    await vt.type("also check the docs");
    await vt.press("enter");
    await vt.waitFor("queued: also check the docs");
    await vt.waitFor("saw the follow-up");
    await vt.waitForGone("queued: also check the docs");
    // It joined the running turn: the second round's request carries it after the tool result.
    const second = t.provider.requests[1].body;
    expect(second.messages.at(-1)).toMatchObject({ role: "user" });
    expect(userTexts(second).at(-1)).toBe("also check the docs");
    expect(second.messages.at(-2)).toMatchObject({ role: "tool", tool_call_id: "c1" });
    await vt.waitFor(/— turn 1 · completed · rounds=1 · tools=1/);
    expect(countLines(vt.lines(), "› also check the docs")).toBe(1);
  });

  it("empty Enter with a queued follow-up interrupts the turn and sends the queue now", async () => {
    t.provider.enqueue(
      openaiStream()
        .text("one ")
        .text("two ")
        .text("three ")
        .text("four ")
        .text("five")
        .finish("stop")
        .usage({ prompt_tokens: 5 })
        .delay(600)
        .build(),
      openaiText("answered the queue"),
    );
    const vt = await t.start();
    await vt.type("long answer please");
    await vt.press("enter");
    await vt.waitFor("one two");
    await vt.type("never mind");
    await vt.press("enter");
    await vt.waitFor("queued: never mind");
    // Empty Enter with nothing queued does nothing; with a queue it interrupts.
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · cancelled/);
    await vt.waitFor("answered the queue");
    expect(userTexts(t.provider.requests[1].body).at(-1)).toBe("never mind");
  });

  it("Ctrl+C interrupts a turn, keeps queued text, and two Ctrl+C at an empty prompt exit", async () => {
    const vt = await slowTurnWithQueue();
    await vt.press("ctrlC");
    await vt.waitFor(/— turn 1 · cancelled/);
    // Kept, not sent: only the first request reached the provider.
    await vt.waitFor("queue held after the interrupt");
    expect(t.provider.requests).toHaveLength(1);
    await vt.type("draft");
    await vt.press("ctrlC");
    await vt.waitForGone("› draft");
    await vt.press("ctrlC");
    await vt.waitFor("press Ctrl+C again to exit");
    // The hint is transient: it goes when its 2 s pass and never reaches the scrollback.
    await vt.waitForGone("press Ctrl+C again to exit", 5_000);
    expect(vt.text()).not.toContain("press Ctrl+C again to exit");
    await vt.press("ctrlC");
    await vt.waitFor("press Ctrl+C again to exit");
    await vt.press("ctrlC");
    expect(await vt.exited).toBe(0);
  });

  it("Esc with a queued follow-up holds the queue without blaming Ctrl+C", async () => {
    const vt = await slowTurnWithQueue();
    await vt.press("escape");
    await vt.waitFor(/— turn 1 · cancelled/);
    await vt.waitFor("queue held after the interrupt: empty Enter sends it");
    expect(vt.text()).not.toContain("after Ctrl+C");
  });

  it("shows a 429's retry-after as a countdown from its own second, and leaves a retrying line (R-UI-20)", async () => {
    t.provider.enqueue(
      openaiError(
        429,
        { error: { message: "slow down please", type: "rate_limit" } },
        { "retry-after": "3" },
      ),
      openaiText("after the wait"),
    );
    const vt = await t.start();
    await vt.type("hurry");
    await vt.press("enter");
    await vt.waitFor("Retrying in 3s (Attempt 2 of 6)");
    // It counts down; a loaded machine may skip a second's frame, not both.
    await vt.waitFor(/Retrying in [12]s \(Attempt 2 of 6\)/);
    expect(vt.screen().join("\n")).toMatch(/Retrying in \ds \(Attempt 2 of 6\) · .*slow down please/);
    await vt.waitFor("after the wait", 20_000);
    await vt.waitForGone("Retrying in");
    // The countdown never showed more than the 3 s the server asked for.
    expect(vt.raw).not.toContain("Retrying in 4s");
    // R-UI-20: the countdown goes; the retry's one transcript line stays (seed 000).
    expect(
      vt.text().match(/retrying model request: rate_limit \(HTTP 429\): slow down please/g),
    ).toHaveLength(1);
  });

  it("/btw answers in a side panel that Esc closes, without touching the transcript", async () => {
    t.provider.enqueue(openaiText("main answer"), openaiText("the side answer"));
    const vt = await t.start();
    await vt.type("main question");
    await vt.press("enter");
    await vt.waitFor("— turn 1 · completed");
    await vt.type("/btw what is 2+2?");
    await vt.press("enter");
    await vt.waitFor("btw: what is 2+2? (1/1)");
    expect(vt.screen().join("\n")).toContain("the side answer");
    expect(t.provider.requests[1].body.tools ?? []).toEqual([]);
    await vt.press("escape");
    await vt.waitForGone("btw: what is 2+2?");
    // Never committed to the scrollback.
    expect(vt.text()).not.toContain("the side answer");
  });
});

describe("tern interactive UI prompts and sessions", () => {
  it("asks the budget prompt of R-BUD-3 and goes on with y", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "glob", args: { pattern: "*" } }]),
      openaiText("second round ran"),
    );
    const vt = await t.start(["--max-model-calls", "1"]);
    await vt.type("go");
    await vt.press("enter");
    await vt.waitFor("continue? [y]es / [n]o / [yyy]");
    await vt.type("y");
    await vt.press("enter");
    await vt.waitFor("second round ran");
    await vt.waitFor(/— turn 1 · completed/);
  });

  it("/fork continues in a new session, shown in the status line", async () => {
    t.provider.enqueue(openaiText("first answer"));
    const vt = await t.start();
    await vt.type("hello");
    await vt.press("enter");
    await vt.waitFor("— turn 1 · completed");
    // The turn's line can be on screen before the rest of its frame (the status line) is.
    const before = (await vt.waitForScreen(/session \S+\s*$/m)).match(/session (\S+)\s*$/m)![1];
    await vt.type("/fork");
    await vt.press("enter");
    const text = await vt.waitFor(/forked into (\S+)/);
    const forked = text.match(/forked into (\S+)/)![1];
    expect(forked).not.toBe(before);
    await vt.waitFor(new RegExp(`· session ${forked}\\s*$`, "m"));
    await vt.type("/history");
    await vt.press("enter");
    await vt.waitFor(/^\s+1 {2}hello$/m);
  });
});
