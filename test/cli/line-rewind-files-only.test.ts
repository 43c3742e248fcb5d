// `/rewind N files-only` in the line mode (`--plain`, R-UI-29): the files alone go back to how
// they were after turn N, the turns stay; a refusal over files changed since names the forced
// command (the line mode cannot ask), which then restores; `/redo` takes it back.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLineCommand } from "../../src/cli/line-commands.js";
import { useHarness } from "../engine/harness.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { lineHost } from "./line-support.js";

const h = useHarness();

describe("/rewind N files-only (line mode)", () => {
  it("restores the files only, refuses over outside changes naming --force, and /redo takes it back", async () => {
    const t = await h.start({ checkpoints: true });
    const { ctx, printed } = lineHost(h, t.session);
    for (const n of [1, 2]) {
      h.provider.enqueue(
        openaiToolCalls([{ id: `w${n}`, name: "write_file", args: { path: `${n}.txt`, content: `${n}\n` } }]),
        openaiText(`wrote ${n}`),
      );
      await t.prompt(`turn ${n}`);
    }
    const file = join(h.dirs.workspace, "2.txt");

    await runLineCommand("/rewind x files-only", ctx);
    expect(printed.at(-1)).toBe("usage: /rewind [turn] files-only [--force]");

    writeFileSync(file, "mine\n");
    await runLineCommand("/rewind 1 files-only", ctx);
    expect(printed.at(-1)).toBe(
      "files changed since the session's last snapshot: 2.txt (use /rewind 1 files-only --force to restore anyway)",
    );
    expect(readFileSync(file, "utf8")).toBe("mine\n");

    await runLineCommand("/rewind 1 files-only --force", ctx);
    expect(printed.at(-1)).toMatch(
      /^⟲ files restored to before turn 2 \(the conversation is kept; \/redo takes it back\): 1 path\n\s+deleted\s+2\.txt$/,
    );
    expect(existsSync(file)).toBe(false);
    expect(t.session.status().lastTurn).toBe(2);

    await runLineCommand("/redo", ctx);
    expect(printed.at(-1)).toMatch(/^redid the files only; 1 path restored\n\s+created\s+2\.txt$/);
    expect(readFileSync(file, "utf8")).toBe("mine\n");

    // `/rewind N files` keeps its meaning: the turns after N leave the context with their files.
    await runLineCommand("/rewind 1 files", ctx);
    expect(printed.at(-1)).toMatch(/^rewound 1 turn \(2\); 1 path restored/);
  });
});
