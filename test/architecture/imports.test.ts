// DESIGN.md import rules: engine may import provider, tools, record, prompt, config; tui and cli
// import engine (and config); nothing imports tui or cli; provider imports only config types.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");

const ALLOWED: Record<string, string[]> = {
  // The entry point starts the Ink front end; nothing else imports tui.
  cli: ["engine", "config", "tui", "commands", "acp"],
  // The ACP front end (`tern acp`): the Session door, config, and the shared slash-command table.
  acp: ["engine", "config", "commands"],
  // The library entry: the Session door plus the types its commands and events are made of.
  lib: ["engine", "config", "provider", "tools", "record"],
  tui: ["engine", "config", "commands"],
  // The slash-command table both front ends share.
  commands: ["engine", "config"],
  engine: ["provider", "tools", "record", "prompt", "config", "checkpoint", "sandbox"],
  // Shadow-repository snapshots know git and the file system only.
  checkpoint: [],
  // The OS sandbox knows the file system and its mechanisms only.
  sandbox: [],
  provider: ["config"],
  tools: ["provider", "config", "sandbox"],
  record: ["provider", "tools", "config"],
  prompt: ["config"],
  config: ["provider"],
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(path) ? [path] : [];
  });
}

describe("import rules", () => {
  it("every cross-folder import follows DESIGN.md", () => {
    const violations: string[] = [];
    for (const file of files(SRC)) {
      const folder = relative(SRC, file).split("/")[0];
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)) {
        const target = relative(SRC, resolve(file, "..", match[1])).split("/")[0];
        if (target === folder || target.startsWith("..")) continue;
        if (!(ALLOWED[folder] ?? []).includes(target))
          violations.push(`${relative(SRC, file)} imports ${target}/`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("front ends use only the Session's door: no engine state, record fold or todo state behind it", () => {
    const reaches: string[] = [];
    for (const folder of ["tui", "cli", "commands", "acp", "lib"])
      for (const file of files(join(SRC, folder))) {
        const lines = readFileSync(file, "utf8").split("\n");
        lines.forEach((line, i) => {
          // `.core`, `["core"]` and the engine-test accessor all open the state behind the door.
          if (
            /\.core\b|\[\s*["'`]core["'`]\s*\]|\bcoreOf\b|\.fold\b|\.policy\b|\.todos\.(get|set)\b/.test(line)
          )
            reaches.push(`${relative(SRC, file)}:${i + 1}: ${line.trim()}`);
        });
      }
    expect(reaches).toEqual([]);
  });

  it("the library entry takes only types from provider, tools and record", () => {
    const bad: string[] = [];
    for (const file of files(join(SRC, "lib")))
      for (const match of readFileSync(file, "utf8").matchAll(
        /(import|export)\s+(type\s+)?[^;]*?from\s+"\.\.\/(provider|tools|record)\/[^"]+"/g,
      ))
        if (!match[2]) bad.push(`${relative(SRC, file)}: ${match[0]}`);
    expect(bad).toEqual([]);
  });

  it("provider imports only types from config", () => {
    const bad: string[] = [];
    for (const file of files(join(SRC, "provider"))) {
      for (const match of readFileSync(file, "utf8").matchAll(
        /import\s+(type\s+)?[^;]*?from\s+"(\.\.\/config\/[^"]+)"/g,
      )) {
        if (!match[1]) bad.push(relative(SRC, file));
      }
    }
    expect(bad).toEqual([]);
  });
});
