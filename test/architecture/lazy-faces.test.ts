// Lazy loading sits at folder faces only: code a run may never need is loaded with import(), and
// that import() of one of tern's own files lives in the face of the room it loads (a folder's
// index.ts), never threaded through the domain files that use it. The command-line room is the
// wiring of the front ends, so its entry files load whole rooms (the UI, ACP, the line mode, the
// commands other than `run`). A package or a Node module imported lazily is its user's business.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");

/** Faces that are not an index.ts, each with why it is one. */
const NAMED_FACES: Record<string, string> = {
  "engine/side.ts": "the face of engine/side/ (askSide for Session)",
  "cli/main.ts": "the entry: the command parser loads after the cheap flags",
  "cli/commands.ts": "every command for program.ts; all but `run` load when named",
  "cli/interactive.ts": "starts the Ink UI or the line mode, whichever the terminal gets",
  "cli/acp.ts": "`tern acp` starts the ACP room",
};

// A relative import() that loads code; `import("./x.js").Name` in a type position loads nothing.
const RELATIVE_IMPORT =
  /(?<!typeof )\bimport\(\s*["'`]\.{1,2}\/[^"'`]*["'`]\s*\)(\.(?!then\b|catch\b|finally\b)\w+)?/g;
const loadsAFile = (text: string) => [...text.matchAll(RELATIVE_IMPORT)].some((m) => m[1] === undefined);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("lazy loading at folder faces", () => {
  it("an import() of tern's own files sits only in a face", () => {
    const threaded: string[] = [];
    for (const file of sources(SRC)) {
      const rel = relative(SRC, file);
      if (basename(file) === "index.ts" || rel in NAMED_FACES) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (loadsAFile(line)) threaded.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(threaded).toEqual([]);
  });

  it("every named face is still there and still loads something", () => {
    const stale = Object.keys(NAMED_FACES).filter((rel) => !loadsAFile(readFileSync(join(SRC, rel), "utf8")));
    expect(stale).toEqual([]);
  });
});
