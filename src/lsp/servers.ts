// The language servers a session may run (R-LSP-1): the built-in ones, each used when its program
// is found, and `lsp.<name>` adding one or overriding fields of a built-in one. `lsp: false` or
// `lsp.<name>.disabled` turns them off.
import { existsSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
import type { Config, LspServerConfig } from "../config/types.js";
import { isInside } from "./programs.js";

export interface ServerSpec {
  name: string;
  /** Programs to try in order, each with its arguments; the first found runs. */
  commands: string[][];
  /** With their dot: `.ts`. */
  extensions: string[];
  /** Files that mark a server's root: the nearest folder holding one. */
  markers: string[];
  env?: Record<string, string>;
  initializationOptions?: unknown;
  /** How the file's diagnostics are asked for: as the server publishes them, or from tsserver itself. */
  diagnostics: "published" | "tsserver";
}

export const TYPESCRIPT_OPTIONS = {
  disableAutomaticTypingAcquisition: true,
  tsserver: { useSyntaxServer: "never" },
};

const BUILTIN: ServerSpec[] = [
  {
    name: "typescript",
    commands: [["typescript-language-server", "--stdio"]],
    extensions: [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"],
    markers: ["tsconfig.json", "jsconfig.json", "package.json"],
    // One tsserver, not a second syntax-only one (~200 MB less); no typings installer fetching
    // @types from npm behind the person's back.
    initializationOptions: TYPESCRIPT_OPTIONS,
    diagnostics: "tsserver",
  },
  {
    name: "pyright",
    commands: [
      ["pyright-langserver", "--stdio"],
      ["basedpyright-langserver", "--stdio"],
    ],
    extensions: [".py", ".pyi"],
    markers: ["pyproject.toml", "pyrightconfig.json", "setup.py", "setup.cfg", "requirements.txt"],
    diagnostics: "published",
  },
  {
    name: "gopls",
    commands: [["gopls"]],
    extensions: [".go"],
    markers: ["go.work", "go.mod"],
    diagnostics: "published",
  },
  {
    name: "rust-analyzer",
    commands: [["rust-analyzer"]],
    extensions: [".rs"],
    markers: ["Cargo.toml"],
    diagnostics: "published",
  },
];

const LANGUAGE_IDS: Record<string, string> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescriptreact",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascriptreact",
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".rs": "rust",
};

export function languageId(path: string): string {
  const ext = extname(path).toLowerCase();
  return LANGUAGE_IDS[ext] ?? ext.slice(1);
}

function overridden(base: ServerSpec | undefined, name: string, cfg: LspServerConfig): ServerSpec | string {
  if (!base && (!cfg.command || !cfg.extensions))
    return `lsp.${name} ignored: a server that is not built in needs command and extensions`;
  const extensions = (cfg.extensions ?? base!.extensions).map((e) => (e.startsWith(".") ? e : `.${e}`));
  return {
    name,
    commands: cfg.command ? [cfg.command] : base!.commands,
    extensions,
    markers: base?.markers ?? [],
    env: cfg.env ?? base?.env,
    initializationOptions: cfg.initializationOptions ?? base?.initializationOptions,
    // A replaced TypeScript program may not be typescript-language-server: ask it the LSP way.
    diagnostics: cfg.command ? "published" : (base?.diagnostics ?? "published"),
  };
}

/** The servers of a configuration, and a line for each `lsp.<name>` tern cannot honour. */
export function configuredServers(config: Config): { servers: ServerSpec[]; warnings: string[] } {
  const lsp = config.lsp;
  if (lsp === false) return { servers: [], warnings: [] };
  const warnings: string[] = [];
  const byName = new Map(BUILTIN.map((s) => [s.name, s]));
  for (const [name, value] of Object.entries(lsp ?? {})) {
    if (name === "diagnosticsTimeoutMs" || typeof value !== "object") continue;
    if (value.disabled) {
      byName.delete(name);
      continue;
    }
    const spec = overridden(byName.get(name), name, value);
    if (typeof spec === "string") warnings.push(spec);
    else byName.set(name, spec);
  }
  return { servers: [...byName.values()], warnings };
}

/** The server for a file: the last configured one claiming its extension (a user's over a built-in). */
export function serverFor(servers: readonly ServerSpec[], path: string): ServerSpec | undefined {
  const ext = extname(path).toLowerCase();
  return [...servers].reverse().find((s) => s.extensions.includes(ext));
}

/** The nearest folder at or above the file, within the workspace, holding one of the markers. */
export function rootFor(spec: ServerSpec, path: string, cwd: string): string {
  const top = isInside(path, cwd) ? resolve(cwd) : dirname(path);
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (spec.markers.some((m) => existsSync(join(dir, m)))) return dir;
    if (resolve(dir) === top || dirname(dir) === dir || !isInside(dir, top)) return top;
  }
}
