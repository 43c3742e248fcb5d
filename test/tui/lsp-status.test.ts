// Language servers in the UI (R-LSP-4): the status line counts the errors the servers last
// reported in the files the session edited; `/lsp` names each server's state.
import { describe, expect, it } from "vitest";
import { languageServersText } from "../../src/commands/lsp-command.js";
import type { EngineEvent } from "../../src/engine/door/events.js";
import { statusText } from "../../src/tui/live-view.js";
import { reduce } from "../../src/tui/reducer.js";
import type { UiAction } from "../../src/tui/ui-actions.js";
import { initialState } from "../../src/tui/ui-state.js";

const ev = (event: EngineEvent): UiAction => ({ type: "event", event, now: 0 });
const lspEvent = (path: string, errors: number): EngineEvent => ({
  type: "lsp_diagnostics",
  path,
  errors,
  warnings: 0,
});
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, "");

describe("language servers in the UI", () => {
  it("the status line counts the newest errors of each edited file, and says nothing at none", () => {
    const start = initialState({ model: "local/m", sessionId: "s1", contextWindow: 1000 });
    const broken = [lspEvent("src/a.ts", 2), lspEvent("src/b.ts", 1)].map(ev).reduce(reduce, start);
    expect(plain(statusText(broken, 200))).toContain(" · 3 errors in edited files · ");
    const fixed = [lspEvent("src/a.ts", 0)].map(ev).reduce(reduce, broken);
    expect(plain(statusText(fixed, 200))).toContain(" · 1 error in edited files · ");
    const clean = [lspEvent("src/b.ts", 0)].map(ev).reduce(reduce, fixed);
    expect(plain(statusText(clean, 200))).not.toContain("error");
  });

  it("/lsp lists each server's state, or why there is none", () => {
    expect(languageServersText([], true)).toBe('language servers are off ("lsp": false)');
    expect(languageServersText([], false)).toMatch(/^no language server started yet/);
    expect(
      languageServersText(
        [
          { name: "typescript", root: "/w", state: "running", pid: 42, openFiles: 2 },
          {
            name: "pyright",
            root: "/w/py",
            state: "unavailable",
            reason: "pyright crashed 4 times",
            openFiles: 1,
          },
        ],
        false,
      ),
    ).toBe(
      "typescript  running  /w  pid 42, 2 open file(s)\npyright  unavailable  /w/py  pyright crashed 4 times",
    );
  });
});
