// Temp folders for tests: every test gets its own TERN_HOME and workspace, never the real home.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempDirs {
  root: string;
  home: string;
  workspace: string;
  cleanup(): void;
}

export function makeTempDirs(prefix = "tern-test-"): TempDirs {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(root, "home");
  const workspace = join(root, "ws");
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  return { root, home, workspace, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
