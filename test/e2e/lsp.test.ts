// `tern run` with the real typescript-language-server (R-LSP-1..4): the model reads two files,
// breaks a type, fixes it, asks for a definition and references, then renames an export another
// file imports; the server's exact codes, places and messages reach the model in the next
// request, `--json` carries `lsp_diagnostics`, and no server process is left once tern exits.
import { spawn } from "node:child_process";
import { readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliEnv, TERN_BIN } from "../support/cli.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { REPO_BIN, writeFiles } from "../lsp/lsp-support.js";
import { ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();

const SHAPES = "export function area(w: number, h: number): number {\n  return w * h;\n}\n";

function processesIn(dir: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const cwd = readlinkSync(`/proc/${name}/cwd`);
        return cwd === dir || cwd.startsWith(`${dir}/`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("language servers in tern run", () => {
  it("sends the server's diagnostics after each edit, answers lsp, and leaves no process", async () => {
    writeFiles(e.dirs.workspace, {
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, module: "nodenext", target: "es2022" },
      }),
      "src/shapes.ts": SHAPES,
      "src/main.ts": 'import { area } from "./shapes.js";\nexport const total: number = area(2, 3);\n',
    });
    // A cold server on a busy machine: the test waits as long as it takes; the default is measured in bench/.
    writeUserConfig(e, { lsp: { diagnosticsTimeoutMs: 60_000 } });
    e.provider.enqueue(
      openaiToolCalls([
        { id: "r1", name: "read_file", args: { path: "src/shapes.ts" } },
        { id: "r2", name: "read_file", args: { path: "src/main.ts" } },
      ]),
      openaiToolCalls([
        {
          id: "w1",
          name: "write_file",
          args: { path: "src/shapes.ts", content: SHAPES.replace("w * h", '"wide"') },
        },
      ]),
      openaiToolCalls([
        {
          id: "f1",
          name: "edit_file",
          args: { path: "src/shapes.ts", old_string: '"wide"', new_string: "w * h" },
        },
      ]),
      openaiToolCalls([
        {
          id: "d1",
          name: "lsp",
          args: { operation: "definition", path: "src/main.ts", line: 2, character: 30 },
        },
        {
          id: "d2",
          name: "lsp",
          args: { operation: "references", path: "src/shapes.ts", line: 1, character: 17 },
        },
      ]),
      openaiToolCalls([
        {
          id: "n1",
          name: "edit_file",
          args: { path: "src/shapes.ts", old_string: "area", new_string: "surface" },
        },
      ]),
      openaiText("Done."),
    );
    const run = await ternRun(e, ["--yes"], "work on shapes", {
      env: { PATH: `${REPO_BIN}:${process.env.PATH}` },
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    const sent = (i: number) =>
      Object.fromEntries(toolMessages(e.provider.requests[i].body).map((m) => [m.id, m.content]));
    expect(sent(2).w1).toMatch(
      /\n\nDiagnostics:\nsrc\/shapes\.ts:2:3: error\[2322\]: Type 'string' is not assignable to type 'number'\.$/,
    );
    expect(sent(3).f1).not.toContain("Diagnostics:");
    expect(sent(4).d1).toBe("src/shapes.ts:1:17: export function area(w: number, h: number): number {");
    expect(sent(4).d2.split("\n").sort()).toEqual([
      'src/main.ts:1:10: import { area } from "./shapes.js";',
      "src/main.ts:2:30: export const total: number = area(2, 3);",
      "src/shapes.ts:1:17: export function area(w: number, h: number): number {",
    ]);
    expect(sent(5).n1).toMatch(
      /\n\nDiagnostics:\nErrors this edit caused in other open files:\nsrc\/main\.ts:1:10: error\[2305\]: Module '"\.\/shapes\.js"' has no exported member 'area'\.$/,
    );
    expect(run.events.filter((ev) => ev.type === "lsp_diagnostics")).toEqual([
      { type: "lsp_diagnostics", path: "src/shapes.ts", errors: 1, warnings: 0 },
      { type: "lsp_diagnostics", path: "src/shapes.ts", errors: 0, warnings: 0 },
      { type: "lsp_diagnostics", path: "src/shapes.ts", errors: 0, warnings: 0 },
    ]);
    expect(processesIn(e.dirs.workspace)).toEqual([]);
  }, 150_000);

  it('with "lsp": false starts no server, the lsp tool is not offered, and a call of it says why', async () => {
    writeFileSync(join(e.dirs.workspace, "a.ts"), "export const a: number = 1;\n");
    writeUserConfig(e, { lsp: false });
    e.provider.enqueue(
      openaiToolCalls([{ id: "s1", name: "lsp", args: { operation: "symbols", path: "a.ts" } }]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--yes"], "look", { env: { PATH: `${REPO_BIN}:${process.env.PATH}` } });
    expect(run.code).toBe(0);
    const offered = (e.provider.requests[0].body as { tools: { function: { name: string } }[] }).tools;
    expect(offered.map((t) => t.function.name)).not.toContain("lsp");
    expect(toolMessages(e.provider.requests[1].body)[0].content).toBe(
      "No language servers in this session (lsp is off in the configuration).",
    );
  });

  it("the lsp tool runs unasked in plan mode and in ask mode", async () => {
    for (const mode of ["plan", "ask"]) {
      e.provider.enqueue(
        openaiToolCalls([{ id: `q-${mode}`, name: "lsp", args: { operation: "diagnostics" } }]),
        openaiText("ok"),
      );
      const run = await ternRun(e, ["--mode", mode], "look", {
        env: { PATH: `${REPO_BIN}:${process.env.PATH}` },
      });
      expect(run.code).toBe(0);
      expect(run.events.find((ev) => ev.type === "tool_result")).toMatchObject({
        outcome: "ok",
        content: "No files are open in a language server yet (read or edit one first).",
      });
    }
  });

  it("servers end when tern is killed outright, so a crash leaves none behind for the resume", async () => {
    writeFiles(e.dirs.workspace, { "tsconfig.json": "{}", "a.ts": "export const a: number = 1;\n" });
    e.provider.enqueue(
      openaiToolCalls([{ id: "r1", name: "read_file", args: { path: "a.ts" } }]),
      // The next answer never comes: tern waits, its server warm, until it is killed.
      { ...openaiText("never"), fault: { kind: "stall_after", frames: 0 } },
    );
    const child = spawn(
      process.execPath,
      [TERN_BIN, "run", "--yes", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, "look"],
      {
        cwd: e.dirs.workspace,
        env: cliEnv(e.dirs.home, { OPENAI_API_KEY: "x", PATH: `${REPO_BIN}:${process.env.PATH}` }),
        stdio: "ignore",
      },
    );
    const until = async (what: string, ok: () => boolean) => {
      for (let waited = 0; !ok(); waited += 100) {
        if (waited > 60_000) throw new Error(`gave up waiting: ${what}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    // The read started the server (its processes work in the workspace) and the stalled request is out.
    await until("the second request", () => e.provider.requests.length >= 2);
    await until("the server", () => processesIn(e.dirs.workspace).some((pid) => pid !== child.pid));
    child.kill("SIGKILL");
    await until("the servers to end after tern was killed", () => processesIn(e.dirs.workspace).length === 0);
  }, 150_000);
});
