// Per-test scaffolding of the UI tests: temp TERN_HOME + workspace, a fake OpenAI-compatible
// provider, and the built CLI started in a pseudo-terminal with `--model local/mock-1`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { FakeProvider } from "../support/fake-provider.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { VTerm } from "../support/vterm.js";

export interface TuiTest {
  dirs: TempDirs;
  provider: FakeProvider;
  /** Starts `tern` in a pseudo-terminal; waits for the status line (or `ready`). */
  start(
    extraArgs?: string[],
    config?: Record<string, unknown>,
    ready?: RegExp,
    env?: Record<string, string | undefined>,
    size?: { cols: number; rows: number },
  ): Promise<VTerm>;
}

export function useTui(): TuiTest {
  const terms: VTerm[] = [];
  const ctx = {
    async start(
      extraArgs: string[] = [],
      config: Record<string, unknown> = {},
      ready?: RegExp,
      env?: Record<string, string | undefined>,
      size?: { cols: number; rows: number },
    ) {
      writeFileSync(
        join(ctx.dirs.home, "config.json"),
        JSON.stringify({ retry: { baseDelaySeconds: 0.01, maxDelaySeconds: 0.05 }, ...config }),
      );
      const vt = new VTerm({
        home: ctx.dirs.home,
        cwd: ctx.dirs.workspace,
        args: ["--model", "local/mock-1", "--base-url", ctx.provider.baseUrl, ...extraArgs],
        env,
        ...size,
      });
      terms.push(vt);
      // No pause after the first frame: tern holds keys typed while it starts (raw mode from the
      // moment the UI is chosen, terminal-modes.ts) and hands them to Ink, so none echo or get lost.
      await vt.waitFor(ready ?? /context \d+% · \d+ tokens/, 15_000);
      return vt;
    },
  } as TuiTest;
  beforeEach(async () => {
    ctx.dirs = makeTempDirs("tern-tui-");
    ctx.provider = await FakeProvider.start();
  });
  afterEach(async () => {
    for (const vt of terms.splice(0)) await vt.close();
    await ctx.provider.close();
    ctx.dirs.cleanup();
  });
  return ctx;
}

/** How many lines of scrollback + screen equal this text (after trimming). */
export function countLines(lines: string[], text: string): number {
  return lines.filter((l) => l.trim() === text).length;
}

/** The user messages' text of a recorded Chat Completions request body, oldest first. */
export function userTexts(body: any): string[] {
  return body.messages
    .filter((m: any) => m.role === "user")
    .map((m: any) =>
      typeof m.content === "string" ? m.content : m.content.map((p: any) => p.text ?? "").join(""),
    );
}

/** The session id the status line shows now. */
export function statusSession(screen: string[]): string {
  const match = screen.join("\n").match(/· session (\S+)\s*$/m);
  if (!match) throw new Error(`no session in the status line:\n${screen.join("\n")}`);
  return match[1];
}

/**
 * Answers an approval prompt as a person would: after the prompt has been up longer than its
 * guard against typed-ahead keys (300 ms), one deliberate key.
 */
export async function approve(vt: VTerm, key: string): Promise<void> {
  await new Promise((r) => setTimeout(r, 450));
  await vt.write(key);
}

export interface CellStyle {
  /** Palette index of the foreground colour, or -1 for the default colour / RGB. */
  fg: number;
  bold: boolean;
}

/** The style of the first cell of the first line (scrollback included) that contains `text`. */
export function styleOf(vt: VTerm, text: string): CellStyle | undefined {
  const buffer = vt.term.buffer.active;
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    const at = line?.translateToString(true).indexOf(text) ?? -1;
    if (!line || at < 0) continue;
    const cell = line.getCell(at);
    if (!cell) return undefined;
    return { fg: cell.isFgPalette() ? cell.getFgColor() : -1, bold: cell.isBold() !== 0 };
  }
  return undefined;
}

/** Erase-screen (ESC[2J) and erase-scrollback (ESC[3J) sequences in the raw output. */
export function screenClears(raw: string): number {
  return (raw.match(/\x1b\[[23]J/g) ?? []).length;
}
