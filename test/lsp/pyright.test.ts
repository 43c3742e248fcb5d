// The real pyright-langserver (the devDependency, on PATH outside the project) behind a session's
// language servers (R-LSP-1..3): its rule names as codes, its message lines as they are, a fixed
// file gets nothing, a removed function shows in the module that imports it. One server.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS } from "../../src/config/defaults.js";
import { SessionLanguageServers } from "../../src/lsp/session-servers.js";
import { config, processesIn, removeProject, serverEnv, tempProject } from "./lsp-support.js";

const GEO = "def area(w: float, h: float) -> float:\n    return w * h\n";
const MAIN = "from geo import area\n\ntotal: float = area(2, 3)\n";

let dir: string;
let servers: SessionLanguageServers;
const signal = new AbortController().signal;
const at = (rel: string) => join(dir, rel);

async function edit(rel: string, text: string) {
  writeFileSync(at(rel), text);
  return servers.edited([at(rel)]);
}

beforeAll(() => {
  dir = tempProject({ "pyproject.toml": '[project]\nname = "geo"\n', "geo.py": GEO, "main.py": MAIN });
  servers = new SessionLanguageServers({
    defaultTimeoutMs: DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS,
    cwd: dir,
    config: config({ lsp: { diagnosticsTimeoutMs: 60_000 } }),
    env: serverEnv(),
  });
  servers.touched(at("main.py"));
});

afterAll(async () => {
  await servers?.close();
  removeProject(dir);
});

describe("pyright-langserver", () => {
  it("appends pyright's error with its rule as the code, and nothing once fixed", async () => {
    const broken = await edit("geo.py", 'def area(w: float, h: float) -> float:\n    return "wide"\n');
    expect(broken.text).toBe(
      "Diagnostics:\n" +
        `geo.py:2:12: error[reportReturnType]: Type "Literal['wide']" is not assignable to return type "float"\n` +
        // pyright indents a message's second line with two no-break spaces; they reach the model as they are.
        `\u00a0\u00a0"Literal['wide']" is not assignable to "float"`,
    );
    expect(broken.files).toEqual([{ path: "geo.py", errors: 1, warnings: 0 }]);
    const fixed = await edit("geo.py", GEO);
    expect(fixed).toEqual({ text: "", files: [{ path: "geo.py", errors: 0, warnings: 0 }] });
  });

  it("names the error a removed function causes in the open module that imports it", async () => {
    const renamed = await edit("geo.py", GEO.replace("area", "surface"));
    expect(renamed.text).toBe(
      "Diagnostics:\nErrors this edit caused in other open files:\n" +
        'main.py:1:17: error[reportAttributeAccessIssue]: "area" is unknown import symbol',
    );
    expect((await edit("geo.py", GEO)).text).toBe("");
  });

  it("answers definition and file symbols", async () => {
    const definition = await servers.query(
      { operation: "definition", path: at("main.py"), line: 3, character: 16 },
      signal,
    );
    expect(definition).toEqual({ ok: true, text: "geo.py:1:5: def area(w: float, h: float) -> float:" });
    const symbols = await servers.query({ operation: "symbols", path: at("main.py") }, signal);
    expect(symbols.text).toContain("main.py:3:1: variable total");
  });

  it("leaves no process behind when the session ends", async () => {
    expect(servers.status()).toMatchObject([{ name: "pyright", root: dir, state: "running" }]);
    await servers.close();
    expect(processesIn(dir)).toEqual([]);
  });
});
