// Thinking in the Ink UI (R-PROV-10): `/thinking` changes the level of the next request and the
// status line; streamed reasoning is drawn dimmed and collapsed once the answer starts.
import { describe, expect, it } from "vitest";
import { openaiStream, openaiText } from "../support/openai-script.js";
import { useTui } from "./support.js";

const t = useTui();

describe("thinking in the UI", () => {
  it("/thinking sets the level: status line, reasoning_effort on the wire, a bad level named", async () => {
    t.provider.enqueue(openaiText("effortful"));
    // A local model the config marks as a reasoning model: chat sends reasoning_effort for it.
    const vt = await t.start([], { models: { "local/mock-1": { reasoning: true, contextWindow: 8000 } } });
    await vt.waitForScreen(/local\/mock-1 · thinking medium · context/);
    await vt.type("/thinking loud");
    await vt.press("enter");
    await vt.waitFor("/thinking: must be off, low, medium, high, got 'loud'");
    await vt.type("/thinking high");
    await vt.press("enter");
    await vt.waitFor("thinking: high");
    await vt.waitForScreen(/local\/mock-1 · thinking high · context/);
    await vt.type("go");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(t.provider.requests[0].body.reasoning_effort).toBe("high");
  });

  it("reasoning is shown dimmed while it streams and collapsed when the answer starts", async () => {
    // The stream holds after the reasoning until the test has seen it, whatever the load.
    let seen!: () => void;
    const reasoningSeen = new Promise<void>((resolve) => (seen = resolve));
    t.provider.enqueue(
      openaiStream()
        .reasoning("pondering the question")
        .hold(reasoningSeen)
        .text("The answer.")
        .finish("stop")
        .build(),
    );
    const vt = await t.start();
    await vt.type("why?");
    await vt.press("enter");
    await vt.waitForScreen("pondering the question", 15_000);
    expect(vt.dim()).toContain("pondering the question");
    seen();
    await vt.waitFor(/— turn 1 · completed/, 15_000);
    expect(vt.text()).toContain("The answer.");
    expect(vt.text()).not.toContain("pondering the question");
  });
});
