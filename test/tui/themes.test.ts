// R-UI-30: themes `dark`, `light` and `colorblind`, every colour of each at least WCAG's 4.5:1
// against its theme's background (xterm's 256-colour RGB values, the WCAG 2 luminance formula);
// `/theme` previews as the picker moves and keeps the chosen one, `ui.theme` sets it at start.
// The pty part reads the colour of drawn cells from @xterm/headless.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { COLOUR_NAMES, contrast, rgbOf, THEMES } from "../../src/tui/themes.js";
import type { VTerm } from "../support/vterm.js";
import { runCli } from "../support/cli.js";
import { useTui } from "./support.js";

const t = useTui();

describe("theme colours (pure)", () => {
  it("maps 256-colour indices to xterm's RGB", () => {
    expect(rgbOf(16)).toEqual([0, 0, 0]);
    expect(rgbOf(203)).toEqual([255, 95, 95]);
    expect(rgbOf(231)).toEqual([255, 255, 255]);
    expect(rgbOf(232)).toEqual([8, 8, 8]);
    expect(rgbOf(255)).toEqual([238, 238, 238]);
    // WCAG's own extremes: black on white is 21:1.
    expect(contrast(16, "#ffffff")).toBeCloseTo(21, 5);
  });

  for (const [name, theme] of Object.entries(THEMES))
    it(`every colour of ${name} reaches 4.5:1 on ${theme.background}`, () => {
      for (const colour of COLOUR_NAMES) {
        const ratio = contrast(theme.colours[colour], theme.background);
        expect({ colour, ok: ratio >= 4.5 }).toEqual({ colour, ok: true });
      }
    });
});

/** The 256-colour index of the first drawn cell of `text` on the visible screen (-1: default). */
function colourOf(vt: VTerm, text: string): number {
  const buffer = vt.term.buffer.active;
  for (let y = 0; y < vt.term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    const at = line?.translateToString(true).indexOf(text) ?? -1;
    if (!line || at < 0) continue;
    const cell = line.getCell(at);
    return cell?.isFgPalette() ? cell.getFgColor() : -1;
  }
  return -2;
}

/** Waits until the cell's colour is `want` (the frame after a key is drawn a moment later). */
const colour = (read: () => number, want: number) =>
  vi.waitFor(() => expect(read()).toBe(want), { timeout: 10_000, interval: 25 });

describe("ui settings in config.json", () => {
  it("a theme tern does not have, or a vim that is not a flag, is one line naming the file and key", async () => {
    const file = join(t.dirs.home, "config.json");
    writeFileSync(file, JSON.stringify({ ui: { theme: "blue" } }));
    const bad = await runCli(["config", "check"], { home: t.dirs.home, cwd: t.dirs.workspace });
    expect(bad.stderr.trim()).toBe(
      `tern: ${file}: ui.theme: Invalid option: expected one of "dark"|"light"|"colorblind"`,
    );
    writeFileSync(file, JSON.stringify({ ui: { vim: "yes" } }));
    const flag = await runCli(["config", "check"], { home: t.dirs.home, cwd: t.dirs.workspace });
    expect(flag.stderr.trim()).toBe(`tern: ${file}: ui.vim: must be true or false`);
  });
});

describe("tern with themes", () => {
  it("ui.theme light draws the status line in the light theme's gray", async () => {
    const vt = await t.start([], { ui: { theme: "light" } });
    await vt.waitForScreen(/local\/mock-1 · context/);
    expect(colourOf(vt, "local/mock-1 · context")).toBe(THEMES.light.colours.gray);
  });

  it("/theme previews as the picker moves, Esc restores, Enter keeps; /theme <name> switches", async () => {
    const vt = await t.start();
    const status = () => colourOf(vt, "local/mock-1 · context");
    expect(status()).toBe(THEMES.dark.colours.gray);
    await vt.type("/theme ");
    await vt.press("enter");
    await vt.waitForScreen(/Theme \(a preview as you move\)/);
    await vt.press("down"); // light: drawn in it at once
    await vt.waitForScreen(/▸ light/);
    await colour(status, THEMES.light.colours.gray);
    await vt.press("escape");
    await vt.waitForGone(/Theme \(a preview/);
    await colour(status, THEMES.dark.colours.gray);
    await vt.type("/theme ");
    await vt.press("enter");
    await vt.waitForScreen(/Theme \(a preview as you move\)/);
    await vt.type("color");
    await vt.press("enter");
    await vt.waitFor('theme: colorblind (set "ui": {"theme": "colorblind"} in config.json to keep it)');
    await colour(status, THEMES.colorblind.colours.gray);
    await vt.type("/theme light");
    await vt.press("enter");
    await vt.waitFor("theme: light");
    await colour(status, THEMES.light.colours.gray);
  });
});
