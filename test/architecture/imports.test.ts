// docs/design.md import rules: the shared vocabulary (vocab/: messages, content parts, usage and cost
// arithmetic) is the ground floor and imports nothing; provider imports only vocab; engine may
// import provider, tools, record, prompt, config; front ends (tui, cli, acp, lib, commands) import
// of the engine only its door (engine/door/, session.ts, the opener open.ts) and what runs no turn
// from workspace/, and config; nothing imports tui or cli, except single files with their why; no import
// cycles between files, not even type-only ones; and no file under src/ over 300 lines.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");

/** Folders each folder may import, besides itself and the ground floor (vocab/), which all may. */
const ALLOWED: Record<string, string[]> = {
  // The entry point starts the Ink front end; nothing else imports tui. `config check` lists the
  // language servers (lsp/check.ts).
  cli: [
    "engine",
    "workspace",
    "config",
    "tui",
    "commands",
    "acp",
    "telemetry",
    "hooks",
    "sandbox",
    "worktrees",
    "lsp",
  ],
  // The ACP front end (`tern acp`): the Session door, config, and the shared slash-command table.
  acp: ["engine", "workspace", "config", "commands"],
  // The library entry: the Session door plus the types its commands and events are made of.
  lib: ["engine", "config", "commands", "tools", "record"],
  // programs/: the clipboard tools a paste runs are resolved like every program tern runs (§10).
  tui: ["engine", "workspace", "config", "commands", "programs"],
  // The slash-command table both front ends share.
  commands: ["engine", "workspace", "config", "worktrees"],
  // What is on disk around sessions, for front ends; runs no turn (listings, workflow report,
  // project servers, workspace files, offline undo, terminal text).
  workspace: ["engine", "config", "record", "prompt", "tools", "agents", "programs"],
  engine: [
    "provider",
    "tools",
    "record",
    "prompt",
    "config",
    "checkpoint",
    "sandbox",
    "jobs",
    "hooks",
    "agents",
    // The opener attaches telemetry for every front end (session-telemetry.ts).
    "telemetry",
    "programs",
    "worktrees",
    "lsp",
  ],
  // Language servers (R-LSP): programs, JSON-RPC, documents, diagnostics; they know no turn.
  lsp: ["config"],
  // Agent files (R-AGENT-2): front matter and bounded reads of markdown files.
  agents: ["config", "prompt"],
  // Background jobs: ring buffers, waiting, the session's table; node only (the spawn is tools').
  jobs: [],
  // The user's hooks: their config, the scrubbed environment, and the sandbox's wrapper type.
  hooks: ["config", "tools", "programs"],
  // Shadow-repository snapshots know git and the file system only.
  checkpoint: ["programs"],
  // The person's git worktrees (R-WT): git (resolved like every program tern runs) and the file system.
  worktrees: ["programs"],
  // The OS sandbox knows the file system and its mechanisms only.
  sandbox: ["programs"],
  // Wire adapters speak the shared vocabulary and nothing else (their retry policy type is their own).
  provider: [],
  tools: ["config", "sandbox", "jobs", "programs"],
  record: ["tools", "config"],
  prompt: ["config"],
  config: [],
  // OpenTelemetry export: the config, and a session's events as it declares them itself.
  telemetry: ["config"],
  // Programs tern itself runs (rg, git, bwrap, bash), resolved from absolute PATH entries
  // outside the workspace (§10): node only, so every room that spawns one may use it.
  programs: [],
  // The ground floor.
  vocab: [],
};

const GROUND = "vocab";

/** The folders that face a person or a program; they reach the engine through its door only. */
const FRONT_ENDS = ["tui", "cli", "commands", "acp", "lib"];

/**
 * Single files a folder may import although their folder is out of its reach, each with its why.
 * An exception grants that file only, and only while everything the file itself imports is within
 * the importing folder's own reach (checked below), so it cannot smuggle in the rest of its folder.
 */
const FILE_EXCEPTIONS: { from: string; file: string; why: string }[] = [
  {
    from: "commands/prompt-input.ts",
    file: "tools/builtin/safe-read.ts",
    why:
      "typed `@path` and `--image` files are read the way the read tool reads: non-blocking and " +
      "bounded, so a FIFO or a device never hangs the prompt; the module knows node:fs only",
  },
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(path) ? [path] : [];
  });
}

describe("import rules", () => {
  it("every cross-folder import follows docs/design.md", () => {
    const violations: string[] = [];
    for (const file of files(SRC)) {
      const folder = relative(SRC, file).split("/")[0];
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)) {
        const targetPath = relative(SRC, resolve(file, "..", match[1])).replace(/\.js$/, ".ts");
        const target = targetPath.split("/")[0];
        if (target === folder || target === GROUND || target.startsWith("..")) continue;
        const excepted = FILE_EXCEPTIONS.some((e) => e.from === relative(SRC, file) && e.file === targetPath);
        if (!excepted && !(ALLOWED[folder] ?? []).includes(target))
          violations.push(`${relative(SRC, file)} imports ${target}/`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("each file exception is used, and the excepted file reaches no further than its importer may", () => {
    const graph = importGraph();
    const bad: string[] = [];
    for (const { from, file } of FILE_EXCEPTIONS) {
      if (!(graph.get(from) ?? []).includes(file))
        bad.push(`${from} no longer imports ${file}: delete the exception`);
      const reach = [from.split("/")[0], GROUND, ...(ALLOWED[from.split("/")[0]] ?? [])];
      for (const dep of graph.get(file) ?? [])
        if (!reach.includes(dep.split("/")[0]))
          bad.push(`${file} imports ${dep}, beyond what ${from} may import`);
    }
    expect(bad).toEqual([]);
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

  it("the door (engine/door/) is words only: types from lower rooms, nothing else of the engine", () => {
    const bad: string[] = [];
    const door = join(SRC, "engine", "door");
    expect(files(door).length).toBeGreaterThan(0);
    for (const file of files(door)) {
      const name = relative(SRC, file);
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/(import|export)\s+(type\s+)?(\*|\{[^}]*\})\s*from\s*"(\.[^"]+)"/g)) {
        const target = relative(SRC, resolve(file, "..", match[4]));
        if (target.startsWith("engine/door/")) continue;
        if (target.startsWith("engine/"))
          bad.push(`${name} imports ${target}, an engine file outside the door`);
        // The opening errors are classes a front end tests with instanceof; the rooms that find them own two.
        else if (!match[2] && !(name === "engine/door/errors.ts" && match[1] === "export"))
          bad.push(`${name} takes a value from ${target}`);
      }
      // A door file declares words, not behaviour: no function bodies (the error classes are one line each).
      if (/^export (async )?function\b/m.test(text)) bad.push(`${name} declares a function`);
    }
    expect(bad).toEqual([]);
  });

  it("front ends import of the engine only its door: engine/door/, session.ts and the opener", () => {
    const door = /^engine\/(door\/.*|session\.ts|open\.ts)$/;
    const bad: string[] = [];
    for (const [from, targets] of importGraph())
      if (FRONT_ENDS.includes(from.split("/")[0]))
        for (const target of targets)
          if (target.startsWith("engine/") && !door.test(target)) bad.push(`${from} imports ${target}`);
    expect(bad).toEqual([]);
  });

  it("no engine file is used only from outside the engine (its door aside): such a file belongs above it", () => {
    const door = /^engine\/(door\/.*|session\.ts|open\.ts)$/;
    const users = new Map<string, string[]>();
    for (const [from, targets] of importGraph())
      for (const target of targets) users.set(target, [...(users.get(target) ?? []), from]);
    const bad: string[] = [];
    for (const [file, from] of users)
      if (file.startsWith("engine/") && !door.test(file) && !from.some((f) => f.startsWith("engine/")))
        bad.push(`${file} is imported only by ${from.join(", ")}`);
    expect(bad).toEqual([]);
  });

  it("front ends import no engine file behind the door: the state, the turn, the follow-up queue", () => {
    // The door's own files (engine/door/, session.ts, the opener) are the way in.
    const behind = [
      /^engine\/core\.ts$/,
      /^engine\/commit(ter)?\.ts$/,
      /^engine\/follow-ups\.ts$/,
      /^engine\/tool-sync\.ts$/,
      /^engine\/turn\//,
      /^engine\/compaction\//,
    ];
    const graph = importGraph();
    const bad: string[] = [];
    for (const [from, targets] of graph)
      if (["tui", "cli", "commands", "acp", "lib"].includes(from.split("/")[0]))
        for (const target of targets)
          if (behind.some((b) => b.test(target))) bad.push(`${from} imports ${target}`);
    expect(bad).toEqual([]);
  });

  it("no front end keeps a follow-up queue or feeds the engine one: the queue is the Session's", () => {
    const reaches: string[] = [];
    for (const folder of ["tui", "cli", "commands", "acp", "lib"])
      for (const file of files(join(SRC, folder)))
        readFileSync(file, "utf8")
          .split("\n")
          .forEach((line, i) => {
            // The old hook that let the engine reach up into a front end's queue, the queue's
            // class, its state behind the door, and the UI actions that once kept a copy.
            if (
              /takeFollowUp|FollowUpQueue|\.followUps\.|type: "(enqueue|dequeue|take_back|drop_queue|hold)"/.test(
                line,
              )
            )
              reaches.push(`${relative(SRC, file)}:${i + 1}: ${line.trim()}`);
          });
    expect(reaches).toEqual([]);
  });

  it("every requirement id a comment in src/ cites has its line in docs/requirements.md", () => {
    const listed = new Set(
      readFileSync(resolve(SRC, "../docs/requirements.md"), "utf8").match(/^- (R-[A-Z]+-\d+) /gm) ?? [],
    );
    const missing = new Set<string>();
    for (const file of files(SRC))
      for (const [id] of readFileSync(file, "utf8").matchAll(/R-[A-Z]+-\d+/g))
        if (!listed.has(`- ${id} `)) missing.add(`${id} (${relative(SRC, file)})`);
    expect(listed.size).toBeGreaterThan(0);
    expect([...missing]).toEqual([]);
  });

  it("every family id and spec section (R-EXT, R-TODO, §n) a comment in src/ cites resolves in docs/requirements.md", () => {
    const docs = readFileSync(resolve(SRC, "../docs/requirements.md"), "utf8");
    const missing = new Set<string>();
    for (const file of files(SRC))
      for (const [cited] of readFileSync(file, "utf8").matchAll(/R-[A-Z]+(?![-A-Z0-9])|§\s?\d+/g)) {
        const id = cited.replace(/\s/g, "");
        // A family (R-HOOK) resolves to its heading, a number-less id (R-EXT) or a section to its line.
        const heading = new RegExp(`^## .*\\(.*\\b${id}\\b.*\\)$`, "m");
        if (!new RegExp(`^- ${id} `, "m").test(docs) && !(id.startsWith("R-") && heading.test(docs)))
          missing.add(`${id} (${relative(SRC, file)})`);
      }
    expect([...missing]).toEqual([]);
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

  it("the vocabulary is the ground floor: it imports nothing, not even a package or a Node module", () => {
    const imports: string[] = [];
    for (const file of files(join(SRC, GROUND)))
      for (const match of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g))
        if (!match[1].startsWith("./")) imports.push(`${relative(SRC, file)} imports ${match[1]}`);
    expect(files(join(SRC, GROUND)).length).toBeGreaterThan(0);
    expect(imports).toEqual([]);
  });

  it("the vocabulary has one home: no other folder re-exports it", () => {
    const reexports: string[] = [];
    for (const file of files(SRC))
      for (const match of readFileSync(file, "utf8").matchAll(
        /export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*from\s*"([^"]+)"/g,
      )) {
        const target = relative(SRC, resolve(file, "..", match[1])).split("/")[0];
        const folder = relative(SRC, file).split("/")[0];
        // The library entry (`import … from "tern"`) is the one public door and may name vocabulary types.
        if (target === GROUND && folder !== GROUND && folder !== "lib") reexports.push(relative(SRC, file));
      }
    expect(reexports).toEqual([]);
  });

  it("has no import cycles, type-only imports included", () => {
    expect(importCycles(importGraph()).map((c) => c.join(", "))).toEqual([]);
  });

  it("the cycle check sees type-only, re-export and dynamic imports, and finds cycles", () => {
    // Guards against the check above passing because it cannot see a cycle at all.
    const text = [
      'import type { A } from "./a.js";',
      'import { b, type B } from "./b.js";',
      'export type { C } from "./c.js";',
      'export * from "./d.js";',
      'const e = await import("./e.js");',
      'import "./f.js";',
      'import { g } from "node:fs";',
    ].join("\n");
    expect(importSpecifiers(text)).toEqual(["./a.js", "./b.js", "./c.js", "./d.js", "./e.js", "./f.js"]);
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts", "d.ts"]],
      ["e.ts", ["d.ts"]],
    ]);
    expect(importCycles(graph)).toEqual([["a.ts", "b.ts", "c.ts"], ["d.ts"]]);
    expect(
      importCycles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });
});

/** Small modules, split by concern: past this a file is doing more than one job. */
const MAX_LINES = 300;

/** Lines as `wc -l` counts them: a final newline ends the last line rather than starting one. */
function lineCount(text: string): number {
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}

describe("module size", () => {
  it(`no file under src/ is over ${MAX_LINES} lines`, () => {
    const over = files(SRC)
      .map((file) => ({ file: relative(SRC, file), lines: lineCount(readFileSync(file, "utf8")) }))
      .filter((f) => f.lines > MAX_LINES);
    expect(over.map((f) => `${f.file}: ${f.lines} lines`)).toEqual([]);
  });
});

/** The relative modules a source text imports (`import`, `import type`, `export … from`, `import()`). */
function importSpecifiers(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)].map((match) => match[1]);
}

/** The files each file imports, type-only imports included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files(SRC)) {
    const edges: string[] = [];
    for (const specifier of importSpecifiers(readFileSync(file, "utf8"))) {
      const base = resolve(file, "..", specifier).replace(/\.js$/, "");
      const target = [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((f) => existsSync(f));
      if (target) edges.push(relative(SRC, target));
    }
    graph.set(relative(SRC, file), edges);
  }
  return graph;
}

/** Groups of files that import each other, directly or around a loop (Tarjan's algorithm). */
function importCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) groups.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return groups;
}
