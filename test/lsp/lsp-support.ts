// Shared scaffolding of the language-server tests: a temp project, the real servers found through
// PATH (the repository's node_modules/.bin, outside the project, as a user's global install would
// be), and the processes that still run with their working folder inside a folder.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Config } from "../../src/config/types.js";
import { defaultConfig } from "../../src/config/defaults.js";

export const REPO_BIN = resolve(import.meta.dirname, "../../node_modules/.bin");

/** tern's environment with the repository's servers on PATH. */
export function serverEnv(extraPath?: string): NodeJS.ProcessEnv {
  return { ...process.env, PATH: [extraPath, REPO_BIN, process.env.PATH].filter(Boolean).join(":") };
}

export function tempProject(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "tern-lsp-")));
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

export function removeProject(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function config(extra: Partial<Config> = {}): Config {
  return { ...defaultConfig(), ...extra };
}

/** Pids of live processes whose working folder is `dir` or below it. */
export function processesIn(dir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) pids.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}
