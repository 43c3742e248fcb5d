// Language servers (R-LSP-2): the time from an edit to its diagnostics through tern's
// SessionLanguageServers (what the edit tools call), cold (a new server: the file read, then
// edited at once) and warm, beside the floor: the same server spawned and asked directly over a
// bare JSON-RPC connection (TypeScript: tsserver's diagnostics through typescript.tsserverRequest,
// as tern asks; pyright: its first publishDiagnostics of the new version, the plain LSP way, where
// tern pulls them). And the resident memory
// the servers add (VmRSS of every process in the server's group). Servers: the devDependencies.
import { spawn } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as lsp from "vscode-languageserver-protocol/node";
import { defaultConfig } from "../../src/config/defaults.js";
import { TYPESCRIPT_OPTIONS } from "../../src/lsp/servers.js";
import { DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS } from "../../src/config/defaults.js";
import { SessionLanguageServers } from "../../src/lsp/session-servers.js";
import { MB, type Plan, stats } from "./harness.js";
import type { Row } from "./rows.js";

interface Language {
  name: string;
  program: string;
  file: string;
  files: Record<string, string>;
  good: string;
  bad: string;
}

const LANGUAGES: Language[] = [
  {
    name: "typescript",
    program: "typescript-language-server",
    file: "src/shapes.ts",
    files: {
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, module: "nodenext", target: "es2022" },
      }),
      "src/main.ts": 'import { area } from "./shapes.js";\nexport const total: number = area(2, 3);\n',
    },
    good: "export function area(w: number, h: number): number {\n  return w * h;\n}\n",
    bad: 'export function area(w: number, h: number): number {\n  return "wide";\n}\n',
  },
  {
    name: "pyright",
    program: "pyright-langserver",
    file: "geo.py",
    files: {
      "pyproject.toml": '[project]\nname = "geo"\n',
      "main.py": "from geo import area\ntotal: float = area(2, 3)\n",
    },
    good: "def area(w: float, h: float) -> float:\n    return w * h\n",
    bad: 'def area(w: float, h: float) -> float:\n    return "wide"\n',
  },
];

function project(lang: Language): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "tern-bench-lsp-")));
  for (const [rel, text] of Object.entries({ ...lang.files, [lang.file]: lang.good })) {
    const path = join(dir, rel);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

/** A server asked directly: the floor under tern's own path. */
class Direct {
  private readonly connection: lsp.ProtocolConnection;
  private version = 0;
  private readonly waiters: ((p: lsp.PublishDiagnosticsParams) => void)[] = [];
  readonly proc;

  constructor(
    private readonly lang: Language,
    private readonly dir: string,
    bin: string,
  ) {
    this.proc = spawn(join(bin, lang.program), ["--stdio"], {
      cwd: dir,
      stdio: ["pipe", "pipe", "ignore"],
      detached: true,
    });
    this.connection = lsp.createProtocolConnection(
      new lsp.StreamMessageReader(this.proc.stdout!),
      new lsp.StreamMessageWriter(this.proc.stdin!),
    );
    this.connection.onRequest(lsp.ConfigurationRequest.type, (p) => p.items.map(() => null));
    this.connection.onRequest(lsp.RegistrationRequest.type, () => undefined);
    this.connection.onRequest(lsp.WorkDoneProgressCreateRequest.type, () => undefined);
    this.connection.onNotification(lsp.PublishDiagnosticsNotification.type, (p) => {
      for (const w of this.waiters.splice(0)) w(p);
    });
    this.connection.listen();
  }

  async start(): Promise<void> {
    const uri = pathToFileURL(this.dir).href;
    await this.connection.sendRequest(lsp.InitializeRequest.type, {
      processId: process.pid,
      rootUri: uri,
      workspaceFolders: [{ uri, name: "bench" }],
      capabilities: {
        textDocument: { publishDiagnostics: { versionSupport: true } },
        workspace: { configuration: true },
      },
      // The floor runs the server as tern does (one tsserver, no typings installer).
      initializationOptions: this.lang.name === "typescript" ? TYPESCRIPT_OPTIONS : {},
    });
    this.connection.sendNotification(lsp.InitializedNotification.type, {});
    this.connection.sendNotification(lsp.DidChangeConfigurationNotification.type, { settings: {} });
  }

  /** Sends the text and returns once the server has its diagnostics (errors counted). */
  async change(text: string): Promise<number> {
    const uri = pathToFileURL(join(this.dir, this.lang.file)).href;
    const version = ++this.version;
    const published =
      this.lang.name === "pyright"
        ? new Promise<lsp.PublishDiagnosticsParams>((resolve) => {
            const wait = (p: lsp.PublishDiagnosticsParams) =>
              p.uri === uri && (p.version ?? version) >= version ? resolve(p) : this.waiters.push(wait);
            this.waiters.push(wait);
          })
        : undefined;
    if (version === 1)
      this.connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
        textDocument: {
          uri,
          languageId: this.lang.name === "pyright" ? "python" : "typescript",
          version,
          text,
        },
      });
    else
      this.connection.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
    if (published) return (await published).diagnostics.length;
    const ask = async (command: string) =>
      (
        (await this.connection.sendRequest("workspace/executeCommand", {
          command: "typescript.tsserverRequest",
          arguments: [command, { file: uri }],
        })) as { body?: unknown[] }
      ).body?.length ?? 0;
    const counts = await Promise.all([ask("syntacticDiagnosticsSync"), ask("semanticDiagnosticsSync")]);
    return counts[0] + counts[1];
  }

  stop(): void {
    try {
      process.kill(-this.proc.pid!, "SIGKILL");
    } catch {}
    this.connection.dispose();
  }
}

/** VmRSS of every process in the group `pgid`. */
function groupRss(pgid: number): number {
  let bytes = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== pgid) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${name}/status`, "utf8"));
      if (rss) bytes += Number(rss[1]) * 1024;
    } catch {}
  }
  return bytes;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

async function languageRows(root: string, lang: Language, plan: Plan): Promise<Row[]> {
  const bin = join(root, "node_modules/.bin");
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
  const config = { ...defaultConfig(), lsp: { diagnosticsTimeoutMs: 120_000 } };
  const cold: number[] = [];
  const coldFloor: number[] = [];
  const warm: number[] = [];
  const warmFloor: number[] = [];
  const rss: number[] = [];
  // One untimed start first: the server's files in the page cache for both sides, whichever goes first.
  {
    const dir = project(lang);
    const warmup = new Direct(lang, dir, bin);
    try {
      await warmup.start();
      await warmup.change(lang.bad);
    } finally {
      warmup.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  for (let run = 0; run < plan.heavyRuns; run++) {
    const dir = project(lang);
    const file = join(dir, lang.file);
    const servers = new SessionLanguageServers({
      defaultTimeoutMs: DEFAULT_LSP_DIAGNOSTICS_TIMEOUT_MS,
      cwd: dir,
      config,
      env,
    });
    const direct = new Direct(lang, dir, bin);
    try {
      // Cold: the file is read (its server starts), then edited at once.
      const [ms, first] = await timed(async () => {
        servers.touched(file);
        writeFileSync(file, lang.bad);
        return servers.edited([file]);
      });
      if (first.files[0]?.errors !== 1)
        throw new Error(`${lang.name}: the cold edit got ${first.text || "no diagnostics"}`);
      cold.push(ms);
      const [floorMs, floorErrors] = await timed(async () => {
        await direct.start();
        return direct.change(lang.bad);
      });
      if (floorErrors < 1) throw new Error(`${lang.name}: the direct server saw no error`);
      coldFloor.push(floorMs);
      for (let i = 0; i < plan.warmup + plan.runs; i++) {
        const text = i % 2 === 0 ? lang.good : lang.bad;
        writeFileSync(file, text);
        const [t] = await timed(() => servers.edited([file]));
        const [f] = await timed(() => direct.change(text));
        if (i >= plan.warmup) {
          warm.push(t);
          warmFloor.push(f);
        }
      }
      const pid = servers.status()[0]?.pid;
      if (pid) rss.push(groupRss(pid) / MB);
    } finally {
      direct.stop();
      await servers.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const floor = (s: number[]) => ({ name: `${lang.name} asked directly`, stats: stats(s) });
  return [
    {
      name: `lsp cold ${lang.name}`,
      metric: "read then edit at once → the edit's diagnostics (server start included)",
      unit: "ms",
      stats: stats(cold),
      baseline: floor(coldFloor),
      target: { kind: "ratio", value: 1.3, text: "<= 1.3x direct" },
    },
    {
      name: `lsp warm ${lang.name}`,
      metric: "edit → its diagnostics, server warm",
      unit: "ms",
      stats: stats(warm),
      baseline: floor(warmFloor),
      target: { kind: "ratio", value: 2, text: "<= 2x direct" },
    },
    {
      name: `lsp RSS ${lang.name}`,
      metric: "resident memory of the server's process group, warm",
      unit: "MB",
      stats: stats(rss),
      target: { kind: "max", value: 400, text: "<= 400 MB" },
    },
  ];
}

export async function lspBench(root: string, plan: Plan): Promise<Row[]> {
  const rows: Row[] = [];
  for (const lang of LANGUAGES) rows.push(...(await languageRows(root, lang, plan)));
  return rows;
}
