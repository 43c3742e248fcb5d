// The /btw side panel in a real pseudo-terminal (R-SIDE-5): Ctrl+C cancels an in-flight side
// question while the main turn goes on, Left / Right step through the thread, x clears it, and
// the panel shows `Waiting for the model` then `Thinking` before the answer streams.
import { describe, expect, it, vi } from "vitest";
import { openaiStream, openaiText } from "../support/openai-script.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();

describe("tern /btw side panel", () => {
  it("Ctrl+C cancels an in-flight side question and closes the panel; the main turn completes", async () => {
    t.provider.enqueue(
      openaiStream()
        .text("main ")
        .text("turn ")
        .text("goes ")
        .text("on ")
        .text("to the end")
        .finish("stop")
        .usage({ prompt_tokens: 5 })
        .delay(250)
        .build(),
      // The side request: the role frame, then silence until the client goes away.
      openaiStream().text("never shown").finish("stop").stallAfter(1).build(),
    );
    const vt = await t.start();
    await vt.type("main work");
    await vt.press("enter");
    await vt.waitFor("main turn");
    await vt.type("/btw side question?");
    await vt.press("enter");
    await vt.waitForScreen("btw: side question?");
    await vt.waitForScreen("Waiting for the model");
    // The panel is drawn before the side request leaves: wait for it to reach the provider.
    await vi.waitFor(() => expect(t.provider.requests).toHaveLength(2), { timeout: 10_000 });
    await vt.press("ctrlC");
    await vt.waitForGone("btw: side question?");
    // The main turn was not interrupted: it streams on and completes.
    expect(vt.text()).not.toContain("— turn 1");
    await vt.waitFor(/— turn 1 · completed/);
    expect(vt.text()).toContain("main turn goes on to the end");
    expect(vt.text()).not.toContain("never shown");
    // A new side question works after the cancelled one (its history has no trace of it).
    t.provider.enqueue(openaiText("fresh side answer"));
    await vt.type("/btw again?");
    await vt.press("enter");
    await vt.waitForScreen("btw: again? (1/1)");
    expect(vt.screen().join("\n")).toContain("fresh side answer");
    expect(userTexts(t.provider.requests[2].body).join("\n")).not.toContain("side question?");
  });

  it("Left / Right step through earlier answers, x clears the thread", async () => {
    t.provider.enqueue(openaiText("answer one"), openaiText("answer two"), openaiText("answer three"));
    const vt = await t.start();
    await vt.type("/btw first?");
    await vt.press("enter");
    await vt.waitForScreen("btw: first? (1/1)");
    await vt.press("escape");
    await vt.waitForGone("btw: first?");
    await vt.type("/btw second?");
    await vt.press("enter");
    await vt.waitForScreen("btw: second? (2/2)");
    expect(vt.screen().join("\n")).toContain("answer two");
    // The second request carried the first exchange as history.
    expect(userTexts(t.provider.requests[1].body)).toContain("first?");
    await vt.press("left");
    await vt.waitForScreen("btw: first? (1/2)");
    expect(vt.screen().join("\n")).toContain("answer one");
    await vt.press("left");
    await vt.waitForScreen("btw: first? (1/2)");
    await vt.press("right");
    await vt.waitForScreen("btw: second? (2/2)");
    await vt.press("right");
    await vt.waitForScreen("btw: second? (2/2)");
    await vt.type("x");
    await vt.waitForGone("btw: second?");
    // Cleared: the next question starts a new thread with no history.
    await vt.type("/btw third?");
    await vt.press("enter");
    await vt.waitForScreen("btw: third? (1/1)");
    expect(userTexts(t.provider.requests[2].body)).not.toContain("first?");
    expect(userTexts(t.provider.requests[2].body)).not.toContain("second?");
  });

  it("shows Waiting for the model before reasoning and Thinking during reasoning, then the text", async () => {
    t.provider.enqueue(
      openaiStream()
        .reasoning("Let me ")
        .reasoning("think.")
        .text("The reasoned answer.")
        .finish("stop")
        .usage({ prompt_tokens: 5 })
        .delay(300)
        .build(),
    );
    const vt = await t.start();
    await vt.type("/btw why?");
    await vt.press("enter");
    await vt.waitForScreen(/btw: why\?[^\n]*\n[^\n]*Waiting for the model/);
    await vt.waitForScreen(/btw: why\?[^\n]*\n[^\n]*Thinking/);
    expect(vt.screen().join("\n")).not.toContain("Waiting for the model");
    await vt.waitForScreen("btw: why? (1/1)");
    const screen = vt.screen().join("\n");
    expect(screen).toContain("The reasoned answer.");
    expect(screen).not.toContain("Thinking");
  });
});

describe("a long finished side answer", () => {
  it("scrolls in the panel with ↓/↑ and PgDn/PgUp, so every row can be read, and stays out of the scrollback", async () => {
    const answer = Array.from({ length: 60 }, (_, i) => `- point ${String(i + 1).padStart(2, "0")}`).join(
      "\n",
    );
    t.provider.enqueue(openaiText(answer));
    const vt = await t.start();
    await vt.type("/btw a long list?");
    await vt.press("enter");
    await vt.waitForScreen("btw: a long list? (1/1)");
    await vt.waitForScreen(/rows 1-\d+ of 60 · ↑\/↓ PgUp\/PgDn scroll/);
    expect(vt.screen().join("\n")).toContain("point 01");
    expect(vt.screen().join("\n")).not.toContain("point 60");
    // Row by row with ↓: each step brings the next point into view, down to the last one.
    const seen = new Set<string>();
    const collect = () => {
      for (const m of vt
        .screen()
        .join("\n")
        .matchAll(/point (\d\d)/g))
        seen.add(m[1]);
    };
    collect();
    for (let i = 0; i < 60 && !seen.has("60"); i++) {
      const before = vt
        .screen()
        .join("\n")
        .match(/rows (\d+)-/)![1];
      await vt.press("down");
      await vt.waitForScreen(new RegExp(`rows ${Number(before) + 1}-`));
      collect();
    }
    expect([...seen].sort()).toEqual(Array.from({ length: 60 }, (_, i) => String(i + 1).padStart(2, "0")));
    await vt.waitForScreen(/rows \d+-60 of 60/);
    // At the end ↓ does not run on past it: the first ↑ after it moves the window up a row.
    const last = vt
      .screen()
      .join("\n")
      .match(/rows (\d+)-60 of 60/)![1];
    await vt.press("down");
    await vt.press("down");
    await vt.press("up");
    await vt.waitForScreen(new RegExp(`rows ${Number(last) - 1}-59 of 60`));
    // PgUp goes back a page at a time to the top; PgDn moves a page down again.
    for (let i = 0; i < 30 && !/rows 1-/.test(vt.screen().join("\n")); i++) {
      const before = vt
        .screen()
        .join("\n")
        .match(/rows (\d+)-/)![1];
      await vt.press("pageUp");
      await vt.waitForScreen(new RegExp(`rows (?!${before}-)\\d+-`));
    }
    expect(vt.screen().join("\n")).toContain("point 01");
    await vt.press("pageDown");
    await vt.waitForGone("point 01");
    // Closed, the answer leaves no trace: it never went to the scrollback (R-SIDE-4).
    await vt.press("escape");
    await vt.waitForGone("btw: a long list?");
    expect(vt.text()).not.toContain("point 30");
  });
});

describe("side question cost (R-SIDE-4)", () => {
  it("the status line shows what side questions cost apart from the session's cost", async () => {
    t.provider.enqueue(
      openaiText("main answer", { prompt_tokens: 1000, completion_tokens: 100 }),
      openaiText("side answer", { prompt_tokens: 2000, completion_tokens: 500 }),
    );
    // USD per million tokens: main (1000×2 + 100×8)/1e6 = $0.0028; side (2000×2 + 500×8)/1e6 = $0.0080.
    const vt = await t.start([], { models: { "local/mock-1": { pricing: { input: 2, output: 8 } } } });
    await vt.type("main");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    await vt.type("/btw how much?");
    await vt.press("enter");
    await vt.waitForScreen("side answer");
    await vt.press("escape");
    await vt.waitForScreen(/\$0\.0028 \(\+ \$0\.0080 side questions\) · ask · session/);
    await vt.type("/cost");
    await vt.press("enter");
    await vt.waitFor("cost so far: $0.0028 (+ $0.0080 side questions)");
  });
});
