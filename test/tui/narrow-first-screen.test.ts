// The first screen of a 40-column terminal (R-UI-16) in a real pseudo-terminal: the greeting and
// the model's "not in the catalogue" notice take at most four rows together, the composer and
// the status line stay in view, and the notice still says which model, what is unknown and
// where to set it; a wide terminal still shows the notice whole.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stripAnsi, width } from "../../src/tui/ansi.js";
import { greeting, noticeLine } from "../../src/tui/greeting.js";
import { useTui } from "./support.js";

const t = useTui();

/** The screen's rows above the composer's top border that hold something. */
function rowsAboveComposer(screen: string[]): string[] {
  const top = screen.findIndex((l) => l.startsWith("┌"));
  expect(top).toBeGreaterThanOrEqual(0);
  return screen.slice(0, top).filter((l) => l.trim() !== "");
}

describe("the first screen at 40 × 12", () => {
  it("keeps the greeting and the model's notice to four rows, the composer and status line in view", async () => {
    const vt = await t.start([], {}, undefined, undefined, { cols: 40, rows: 12 });
    await vt.waitForScreen(/\/help keys · Ctrl\+C exit/);
    const screen = vt.screen();
    const above = rowsAboveComposer(screen);
    expect(above.length).toBeLessThanOrEqual(4);
    const text = above.join("");
    // Which model, what is unknown, what to do.
    expect(text).toMatch(/^notice: local\/mock-1: window and prices unknown; set models in config\.json/);
    expect(text).toMatch(/tern \S+ · local\/mock-1 · \/.*…?\/ws/);
    expect(screen.join("\n")).toMatch(/│ › +│/);
    expect(screen.join("\n")).toMatch(/└─+┘/);
    expect(screen.join("\n")).toMatch(/local\/mock-1 · context \d+%/);
    // Typing works from there, the caret where the cursor is.
    await vt.type("hi");
    await vt.waitForScreen(/│ › hi +│/);
  });

  it("a workspace's unapproved MCP server is offered in two rows at most, the composer still in view", async () => {
    writeFileSync(
      join(t.dirs.workspace, ".mcp.json"),
      JSON.stringify({ mcpServers: { Files: { command: process.execPath, args: ["-e", "0"] } } }),
    );
    const vt = await t.start([], {}, undefined, undefined, { cols: 40, rows: 12 });
    await vt.waitForScreen(/\/help keys · Ctrl\+C exit/);
    await vt.waitForScreen(/not approved\s*· \/mcp approve/);
    const above = rowsAboveComposer(vt.screen());
    expect(above.join("")).toContain(".mcp.json: MCP server Files not approved · /mcp approve");
    // Said once, by the offer: no notice repeats that the server waits for approval.
    expect(vt.text()).not.toContain("not approved for this workspace");
    // Greeting and notice in four rows, the offer in two.
    expect(above.length).toBeLessThanOrEqual(6);
    expect(vt.screen().join("\n")).toMatch(/│ › +│/);
  });

  it("a deep workspace is shortened in its middle, its own folder kept", async () => {
    const deep = join(t.dirs.workspace, "a-rather-long-folder-name", "and-another-one", "project");
    mkdirSync(deep, { recursive: true });
    const greet = stripAnsi(greeting(true, "local/mock-1", deep, "id", false, 40));
    const [first, keys] = greet.split("\n");
    expect(first.length).toBeLessThanOrEqual(40);
    expect(first).toMatch(/^tern \S+ · local\/mock-1 · \/.*….*\/project$/);
    expect(keys).toBe("/help keys · Ctrl+C exit");
  });

  it("a long model id's notice keeps to two rows at 40 columns, still naming the model", () => {
    const id = "openrouter/vendor/some-model-2026";
    const whole = `model ${id} is not in the catalogue: assuming a 128000-token context window, 8192 max output tokens, no image input, unknown price (set models["${id}"] in config.json to change this)`;
    const line = noticeLine(whole, id, 40);
    expect(line).toBe(`notice: ${id}: unknown window/prices (config.json)`);
    expect(width(line)).toBeLessThanOrEqual(80);
  });

  it("the keys row never wraps: the whole list at 80 columns, the short one below", () => {
    const keysAt = (cols: number) => stripAnsi(greeting(true, "m", "/w", "id", false, cols)).split("\n")[1];
    expect(keysAt(80)).toBe(
      "Enter send · Alt+Enter newline · Esc interrupt · Ctrl+C clear/exit · /help more",
    );
    expect(width(keysAt(80))).toBeLessThan(80);
    expect(keysAt(79)).toBe("/help keys · Ctrl+C exit");
    expect(keysAt(60)).toBe("/help keys · Ctrl+C exit");
  });

  it("a notice that fits in two rows is shown whole; the model's longer one is shortened", () => {
    const whole =
      'model local/mock-1 is not in the catalogue: assuming a 128000-token context window, 8192 max output tokens, no image input, unknown price (set models["local/mock-1"] in config.json to change this)';
    expect(noticeLine(whole, "local/mock-1", 120)).toBe(`notice: ${whole}`);
    expect(noticeLine(whole, "local/mock-1", 100)).toBe(
      "notice: local/mock-1: window and prices unknown; set models in config.json",
    );
    expect(noticeLine(whole, "local/mock-1", 40)).toBe(
      "notice: local/mock-1: window and prices unknown; set models in config.json",
    );
    expect(noticeLine("a hook file is not valid JSON", "local/mock-1", 40)).toBe(
      "notice: a hook file is not valid JSON",
    );
  });
});
