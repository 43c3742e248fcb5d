// A running bash call shows the live tail of its output under its line, with a line count
// (R-UI-18); the tail is drawn in the live region only, and `--json` carries no tail events.
import { describe, expect, it } from "vitest";
import { jsonEvents, runCli } from "../support/cli.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useTui } from "./support.js";

const t = useTui();

const SLOW = "for i in 1 2 3 4 5 6 7 8; do echo tail-line-$i; sleep 0.25; done";

describe("live tool output", () => {
  it("shows a running command's last lines and how many it has printed, as they come", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "s1", name: "bash", args: { command: SLOW } }]),
      openaiText("counted"),
    );
    const vt = await t.start(["--yes"]);
    await vt.type("count slowly");
    await vt.press("enter");
    // While it runs: the call's line with a count, and its newest lines under it.
    const early = await vt.waitForScreen(/○ bash {2}for i in .* · [2-4] lines[\s\S]*⎿ tail-line-[1-3]/);
    expect(early).toMatch(/Running bash/);
    expect(early).not.toContain("tail-line-8");
    await vt.waitForScreen(/· [5-7] lines\s*\n\s*⎿ tail-line-\d\s*\n\s*tail-line-\d\s*\n\s*tail-line-[5-7]/);
    await vt.waitFor("counted");
    // Finished: the committed call line has its duration, its output tail is the last lines.
    const text = vt.text();
    expect(text).toMatch(/● bash {2}for i in .* · \d+\.\ds/);
    expect(text).toContain("tail-line-8");
    expect(vt.screen().join("\n")).not.toMatch(/○ bash/);
  });

  it("keeps the tail off the --json stream", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "s1", name: "bash", args: { command: "echo a; sleep 0.3; echo b" } }]),
      openaiText("done"),
    );
    const run = await runCli(
      ["run", "--json", "--yes", "--model", "local/mock-1", "--base-url", t.provider.baseUrl, "go"],
      { home: t.dirs.home, cwd: t.dirs.workspace },
    );
    expect(run.code).toBe(0);
    const types = jsonEvents(run.stdout).map((e) => e.type);
    expect(types).toContain("tool_result");
    expect(types).not.toContain("tool_output");
  });
});
