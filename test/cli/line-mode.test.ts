// `tern --plain` in a real pseudo-terminal: a line typed while a turn runs is a
// follow-up in the engine's queue, as in the full UI (R-UI-1, R-TURN-7): during a tool batch it
// joins after the batch; during a text answer it starts the next turn; Ctrl+C holds the queue and
// an empty line sends it (R-UI-2, R-UI-5).
import { describe, expect, it } from "vitest";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { userTexts, useTui } from "../tui/support.js";

const t = useTui();
const plain = () =>
  t.start(["--plain"], { permissions: { mode: "yolo" } }, /tern · local\/mock-1 · session \S+/);

describe("tern --plain follow-ups", () => {
  it("a line typed during a tool batch joins the running turn after the batch", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "sleep 0.8; echo slow" } }]),
      openaiText("saw both"),
    );
    const vt = await plain();
    await vt.waitFor(/^› $/m);
    await vt.type("check A");
    await vt.press("enter");
    await vt.waitFor("→ bash");
    await vt.type("also check B");
    await vt.press("enter");
    await vt.waitFor("queued: also check B");
    await vt.waitFor(/— turn 1 · completed/);
    expect(t.provider.requests).toHaveLength(2);
    expect(userTexts(t.provider.requests[1].body)).toEqual(["check A", "also check B"]);
    await vt.type("/quit");
    await vt.press("enter");
    expect(await vt.exited).toBe(0);
  });

  it("a line typed during a text answer starts the next turn", async () => {
    t.provider.enqueue(
      openaiStream().text("slow ").text("answer").delay(400).build(),
      openaiText("second answer"),
    );
    const vt = await plain();
    await vt.waitFor(/^› $/m);
    await vt.type("first");
    await vt.press("enter");
    await vt.waitFor("slow");
    await vt.type("second");
    await vt.press("enter");
    await vt.waitFor(/— turn 2 · completed/);
    expect(userTexts(t.provider.requests[1].body)).toEqual(["first", "second"]);
    expect(vt.text()).toContain("› second");
  });

  it("Ctrl+C interrupts and holds the queue; an empty line sends it", async () => {
    t.provider.enqueue(openaiStream().text("working").stallAfter(2).build(), openaiText("held one ran"));
    const vt = await plain();
    await vt.waitFor(/^› $/m);
    await vt.type("long task");
    await vt.press("enter");
    await vt.waitFor("working");
    await vt.type("held one");
    await vt.press("enter");
    await vt.waitFor("queued: held one");
    await vt.press("ctrlC");
    await vt.waitFor(/— turn 1 · cancelled/);
    await vt.waitFor("queue held after Ctrl+C");
    expect(t.provider.requests).toHaveLength(1);
    await vt.press("enter");
    await vt.waitFor("held one ran");
    await vt.waitFor(/— turn 2 · completed/);
    expect(userTexts(t.provider.requests[1].body).at(-1)).toBe("held one");
  });
});
