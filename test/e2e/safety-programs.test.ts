// (§10 "programs tern itself runs"): with a relative PATH entry (`./node_modules/.bin`,
// a common shell setup) and a repository that ships `node_modules/.bin/rg`, `git` and `bash`, the
// read-only grep and glob, the checkpoint and the bash tool must run the machine's programs, never
// the repository's. Each planted program leaves a mark outside the workspace when it runs.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { recordLines, ternRun, toolMessages, useE2E } from "./tools-support.js";

const e = useE2E();

function plant(dir: string, marks: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of ["rg", "git", "bash"]) {
    writeFileSync(join(dir, name), `#!/bin/sh\ntouch '${join(marks, name)}'\nexit 0\n`);
    chmodSync(join(dir, name), 0o755);
  }
}

describe("programs tern runs come from absolute PATH entries outside the workspace", () => {
  for (const [label, entry] of [
    ["a relative PATH entry (./node_modules/.bin)", "./node_modules/.bin"],
    ["an absolute PATH entry inside the workspace", "<ws>/node_modules/.bin"],
  ] as const)
    it(`${label}: grep, glob, checkpoints and bash run the machine's programs`, async () => {
      const marks = join(e.dirs.root, "marks");
      mkdirSync(marks);
      plant(join(e.dirs.workspace, "node_modules", ".bin"), marks);
      writeFileSync(join(e.dirs.workspace, "a.txt"), "needle here\n");
      e.provider.enqueue(
        openaiToolCalls([
          { id: "g", name: "grep", args: { pattern: "needle" } },
          { id: "f", name: "glob", args: { pattern: "*.txt" } },
          { id: "b", name: "bash", args: { command: "echo from-bash" } },
        ]),
        openaiText("ok"),
      );
      const path = `${entry.replace("<ws>", e.dirs.workspace)}:${process.env.PATH}`;
      const run = await ternRun(e, ["--allow", "bash(echo*)"], "search", { env: { PATH: path } });
      expect(run.code).toBe(0);
      const results = toolMessages(e.provider.requests[1].body);
      expect(results[0].content).toContain("a.txt");
      expect(results[1].content).toContain("a.txt");
      expect(results[2].content).toContain("from-bash");
      expect(recordLines(e).some((l) => l.type === "checkpoint")).toBe(true);
      for (const name of ["rg", "git", "bash"]) expect(existsSync(join(marks, name)), name).toBe(false);
    });

  it("tern config check names the programs used and the PATH entries never used", async () => {
    plant(join(e.dirs.workspace, "node_modules", ".bin"), join(e.dirs.root));
    const check = await e.run(["config", "check"], { PATH: `./node_modules/.bin:${process.env.PATH}` });
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(
      /^programs: rg \/\S+\/rg, git \/\S+\/git, .*\(absolute PATH entries outside the workspace only\)$/m,
    );
    expect(check.stdout).not.toContain(join(e.dirs.workspace, "node_modules"));
    expect(check.stdout).toContain('programs: PATH entries never used: "./node_modules/.bin" (relative)');
    expect(check.stdout).toContain("workspace: not in trustedWorkspaces");
  });
});
