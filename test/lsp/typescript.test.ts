// The real typescript-language-server (the devDependency, found on PATH outside the project) behind
// a session's language servers (R-LSP-1..3): an edit that breaks a type gets tsserver's own code,
// place and message; its fix gets nothing; a changed export shows in the file that imports it;
// definition, references, hover and symbols answer 1-based. One server for the whole file.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS } from "../../src/config/defaults.js";
import { SessionLanguageServers } from "../../src/lsp/session-servers.js";
import { config, processesIn, removeProject, serverEnv, tempProject } from "./lsp-support.js";

const SHAPES = "export function area(w: number, h: number): number {\n  return w * h;\n}\n";
const MAIN = 'import { area } from "./shapes.js";\nexport const total: number = area(2, 3);\n';

let dir: string;
let servers: SessionLanguageServers;
const signal = new AbortController().signal;
const at = (rel: string) => join(dir, rel);

async function edit(rel: string, text: string) {
  writeFileSync(at(rel), text);
  return servers.edited([at(rel)]);
}

beforeAll(() => {
  dir = tempProject({
    "tsconfig.json": JSON.stringify({
      compilerOptions: { strict: true, module: "nodenext", target: "es2022" },
    }),
    "src/shapes.ts": SHAPES,
    "src/main.ts": MAIN,
  });
  // Generous: a cold server on a busy 2-core machine; the default is for the model's pace.
  servers = new SessionLanguageServers({
    defaultTimeoutMs: DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS,
    cwd: dir,
    config: config({ lsp: { diagnosticsTimeoutMs: 60_000 } }),
    env: serverEnv(),
  });
  // A read starts the server and opens the file (R-LSP-1).
  servers.touched(at("src/shapes.ts"));
  servers.touched(at("src/main.ts"));
});

afterAll(async () => {
  await servers?.close();
  removeProject(dir);
});

describe("typescript-language-server", () => {
  it("appends a broken type's error with tsserver's code, place and message, and nothing once fixed", async () => {
    const broken = await edit(
      "src/shapes.ts",
      'export function area(w: number, h: number): number {\n  return "wide";\n}\n',
    );
    expect(broken.text).toBe(
      "Diagnostics:\nsrc/shapes.ts:2:3: error[2322]: Type 'string' is not assignable to type 'number'.",
    );
    expect(broken.files).toEqual([{ path: "src/shapes.ts", errors: 1, warnings: 0 }]);
    const fixed = await edit("src/shapes.ts", SHAPES);
    expect(fixed.text).toBe("");
    expect(fixed.files).toEqual([{ path: "src/shapes.ts", errors: 0, warnings: 0 }]);
  });

  it("names the errors a changed export causes in another open file", async () => {
    const renamed = await edit("src/shapes.ts", SHAPES.replace("area", "surface"));
    expect(renamed.text).toBe(
      "Diagnostics:\nErrors this edit caused in other open files:\n" +
        `src/main.ts:1:10: error[2305]: Module '"./shapes.js"' has no exported member 'area'.`,
    );
    const all = await servers.query({ operation: "diagnostics" }, signal);
    expect(all.text).toContain("src/main.ts:1:10: error[2305]:");
    expect((await edit("src/shapes.ts", SHAPES)).text).toBe("");
  });

  it("lists at most 20 errors of a file, then how many more", async () => {
    const lines = Array.from({ length: 25 }, (_, i) => `export const v${i}: number = "x";`).join("\n");
    const { text } = await edit("src/many.ts", `${lines}\n`);
    const listed = text.split("\n");
    expect(listed[0]).toBe("Diagnostics:");
    expect(listed[1]).toBe(
      "src/many.ts:1:14: error[2322]: Type 'string' is not assignable to type 'number'.",
    );
    expect(listed).toHaveLength(22);
    expect(listed[21]).toBe("… 5 more");
  });

  it("answers definition, references, hover and symbols with 1-based places and one-line previews", async () => {
    // `area` in `area(2, 3)`: line 2, column 30.
    const definition = await servers.query(
      { operation: "definition", path: at("src/main.ts"), line: 2, character: 30 },
      signal,
    );
    expect(definition).toEqual({
      ok: true,
      text: "src/shapes.ts:1:17: export function area(w: number, h: number): number {",
    });
    const references = await servers.query(
      { operation: "references", path: at("src/shapes.ts"), line: 1, character: 17 },
      signal,
    );
    expect(references.text.split("\n").sort()).toEqual([
      'src/main.ts:1:10: import { area } from "./shapes.js";',
      "src/main.ts:2:30: export const total: number = area(2, 3);",
      "src/shapes.ts:1:17: export function area(w: number, h: number): number {",
    ]);
    const hover = await servers.query(
      { operation: "hover", path: at("src/main.ts"), line: 2, character: 30 },
      signal,
    );
    expect(hover.text).toContain("area(w: number, h: number): number");
    const symbols = await servers.query({ operation: "symbols", path: at("src/shapes.ts") }, signal);
    expect(symbols.text).toBe("src/shapes.ts:1:17: function area");
    const found = await servers.query({ operation: "workspace_symbols", query: "total" }, signal);
    expect(found.text).toContain(
      "src/main.ts:2:14: constant total: export const total: number = area(2, 3);",
    );
  });

  it("shows the server running, then leaves no process behind when the session ends", async () => {
    const [state] = servers.status();
    expect(state).toMatchObject({ name: "typescript", root: dir, state: "running" });
    expect(processesIn(dir)).toContain(state.pid);
    await servers.close();
    expect(processesIn(dir)).toEqual([]);
    expect(await servers.edited([at("src/shapes.ts")])).toEqual({ text: "", files: [] });
  });
});
