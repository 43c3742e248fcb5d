// Rough edges of the UI's wording in a real pseudo-terminal: an empty answer says so, `/model`
// alone lists what to pick from, a command that cannot carry a grant says "always" plainly, and
// the counts read as English ("1 line").
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { approve, useTui } from "./support.js";

const t = useTui();

describe("tern interactive UI rough edges", () => {
  it("a whitespace-only answer shows a visible (empty answer) line", async () => {
    t.provider.enqueue(openaiText("  \n\n  "));
    const vt = await t.start();
    await vt.type("say nothing");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(vt.text()).toContain("(empty answer)");
  });

  it("/model alone opens the picker of configured and catalogue models, the current one marked (R-UI-28)", async () => {
    const vt = await t.start([], { models: { "local/other": { contextWindow: 1000 } } });
    await vt.type("/model");
    await vt.press("enter");
    await vt.waitForScreen(/▸ local\/mock-1 .*· current/);
    await vt.waitForScreen(/ {2}local\/other +1k window · price \?/);
    await vt.type("sonnet-4-5");
    await vt.waitForScreen(/▸ anthropic\/claude-sonnet-4-5 +200k window · \$3 \/ \$15 per M/);
    await vt.press("escape");
    await vt.waitForGone("Switch model");
  });

  it("an approval for a command without a grant reads naturally, and one added line says 1 line", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo $(date)\necho two" } }]),
      openaiText("done"),
    );
    const vt = await t.start();
    await vt.type("go");
    await vt.press("enter");
    await vt.waitFor("always:");
    const shown = vt.text().replace(/\n/g, " ");
    expect(shown).toMatch(/always: this call only \(this command cannot carry a grant\)/);
    expect(shown).not.toContain("nothing more");
    await approve(vt, "y");
    await vt.waitFor(/— turn 1 · completed/);
    expect(vt.text()).toContain("echo $(date) (+1 line)");
  });
});
