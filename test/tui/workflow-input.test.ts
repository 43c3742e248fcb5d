// Two composer paths a user's workflow reaches (R-WF-2, R-WF-4), in a real pseudo-terminal:
// the `/` menu stays open and filters over a namespaced custom command's `:`, and an `@file`
// typed in the UI is cut to the configured `toolOutputLimit`, as `tern run` cuts it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandMenu } from "../../src/tui/completion.js";
import { openaiText } from "../support/openai-script.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();

describe("the composer and a user's workflow", () => {
  it("keeps the / menu open while a name with ':' is typed", async () => {
    const dir = join(t.dirs.workspace, ".claude", "commands", "frontend");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "component.md"), "---\ndescription: make a component\n---\nMake $ARGUMENTS\n");
    writeFileSync(join(dir, "page.md"), "---\ndescription: make a page\n---\nMake a page $ARGUMENTS\n");
    const vt = await t.start();
    await vt.type("/frontend");
    await vt.waitForScreen(/› \/frontend:component/);
    await vt.type(":");
    await vt.waitForScreen(/make a page/);
    await vt.waitForScreen(/› \/frontend:component/);
    await vt.type("p");
    await vt.waitForScreen(/› \/frontend:page/);
    await vt.waitForGone("make a component");
    // Pure: `:` and `.` keep a typed name a command name.
    expect(commandMenu("/mcp:", 5)).toBeUndefined();
    expect(commandMenu("/mc", 3)?.items.map((i) => i.value)).toContain("/mcp ");
  });

  it("cuts an @file to the configured toolOutputLimit", async () => {
    writeFileSync(join(t.dirs.workspace, "big.txt"), `${"a".repeat(9_000)}END\n`);
    t.provider.enqueue(openaiText("read it"));
    const vt = await t.start([], { toolOutputLimit: 2000 });
    // Typed on past the path, so the @ menu is closed when Enter sends.
    await vt.type("see @big.txt now");
    await vt.waitForGone("↑/↓ choose");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    const body = t.provider.requests[0].body as any;
    const parts = userTexts(body).at(-1) ?? "";
    expect(parts).toContain("characters elided; read the rest with read_file offset/limit (path big.txt)");
    expect(parts.length).toBeLessThan(3_000);
    expect(parts).toContain("see @big.txt now");
  });
});
