// The built-in search loop of grep (without ripgrep) runs in worker threads: a JavaScript regex
// cannot be interrupted on the thread that runs it, so a runaway pattern (catastrophic
// backtracking) would freeze tern, Ctrl+C included; the workers are terminated on timeout or
// cancel (R-TOOL-6). Two workers share the files (both cores), claiming chunks in order through a
// shared counter, so each one's first matches are in path order and the merge keeps only those.
// Per file: one read into a reused buffer; files without the pattern's literal texts are skipped
// undecoded; otherwise one scan over the whole text (no line splitting) with hits confirmed on
// their line. The worker's code is plain JavaScript in a string, the same from sources and bundle.
import type { Worker } from "node:worker_threads";

export interface SearchRequest {
  pattern: string;
  /** readPattern's newline-free reading (see regex-translate.ts); line by line without one. */
  lineJs?: string;
  literals?: string[];
  /** The files, relative to `dir` (`/`-separated). */
  dir: string;
  files: string[];
  maxMatches: number;
  maxLineChars: number;
  maxFileBytes: number;
}

export interface SearchMatch {
  file: number;
  line: number;
  text: string;
}

export type SearchOutcome =
  | { kind: "done"; matches: SearchMatch[]; total: number; skipped: number }
  | { kind: "timeout" }
  | { kind: "cancelled" }
  | { kind: "failed"; message: string };

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const { pattern, lineJs, literals, dir, paths, offsets, maxMatches, maxLineChars, maxFileBytes, counter } = workerData;
const prefix = dir.endsWith("/") ? dir : dir + "/";
const pathBytes = Buffer.from(paths);
const at = new Int32Array(offsets);
const fileCount = at.length - 1;
const re = new RegExp(pattern);
const scan = lineJs === undefined ? undefined : new RegExp(lineJs, "gm");
const needles = literals === undefined ? undefined : literals.map((l) => Buffer.from(l, "utf8"));
const next = new Int32Array(counter);
const CHUNK = 16;
const matches = [];
let total = 0;
let skipped = 0;
let buf = Buffer.allocUnsafe(1 << 20);
function found(f, line, text) {
  if (text.endsWith("\\r")) text = text.slice(0, -1);
  if (!re.test(text)) return;
  total++;
  if (matches.length < maxMatches)
    matches.push({ file: f, line, text: text.length > maxLineChars ? text.slice(0, maxLineChars) + "…" : text });
}
function searchText(f, text) {
  // A final newline ends the last line; it does not start an empty one (as ripgrep counts).
  const end = text.endsWith("\\n") ? text.length - 1 : text.length;
  if (scan === undefined) {
    const lines = text.slice(0, end).split("\\n");
    for (let i = 0; i < lines.length; i++) found(f, i + 1, lines[i]);
    return;
  }
  let line = 1;
  let counted = 0;
  scan.lastIndex = 0;
  for (let m = scan.exec(text); m !== null; m = scan.exec(text)) {
    if (m.index > end) break;
    const start = m.index === 0 ? 0 : text.lastIndexOf("\\n", m.index - 1) + 1;
    let stop = text.indexOf("\\n", m.index);
    if (stop === -1) stop = text.length;
    for (let k = text.indexOf("\\n", counted); k !== -1 && k < start; k = text.indexOf("\\n", k + 1)) line++;
    counted = start;
    found(f, line, text.slice(start, stop));
    if (stop >= end) break;
    scan.lastIndex = stop + 1;
  }
}
for (let c = Atomics.add(next, 0, CHUNK); c < fileCount; c = Atomics.add(next, 0, CHUNK)) {
  for (let f = c; f < Math.min(c + CHUNK, fileCount); f++) {
    let fd;
    let size = 0;
    try {
      // Non-blocking open and a check on the descriptor: a FIFO or device is skipped, never read.
      fd = fs.openSync(prefix + pathBytes.toString("utf8", at[f], at[f + 1]), fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      const st = fs.fstatSync(fd);
      if (!st.isFile() || st.size > maxFileBytes) { skipped++; continue; }
      if (st.size + 1 > buf.length) buf = Buffer.allocUnsafe(Math.max(st.size + 1, buf.length * 2));
      for (let n = 1; n > 0 && size < buf.length; size += n) n = fs.readSync(fd, buf, size, buf.length - size, null);
    } catch { skipped++; continue; } finally { if (fd !== undefined) fs.closeSync(fd); }
    if (size === 0) continue;
    const bytes = buf.subarray(0, size);
    if (bytes.subarray(0, 8192).includes(0)) continue;
    if (needles !== undefined && !needles.some((n) => bytes.includes(n))) continue;
    searchText(f, bytes.toString("utf8"));
  }
}
parentPort.postMessage({ matches, total, skipped });
`;

/**
 * The paths (relative, so half the bytes) as UTF-8 in shared memory with their offsets: both
 * workers read the one copy (a cloned array of 100,000 strings cost each worker ~15 MB of its
 * own heap).
 */
function sharedPaths(files: readonly string[]): { paths: SharedArrayBuffer; offsets: SharedArrayBuffer } {
  const offsets = new Int32Array(new SharedArrayBuffer(4 * (files.length + 1)));
  let size = 0;
  for (let i = 0; i < files.length; i++) {
    offsets[i] = size;
    size += Buffer.byteLength(files[i]);
  }
  offsets[files.length] = size;
  const paths = new SharedArrayBuffer(size);
  const bytes = Buffer.from(paths);
  for (let i = 0; i < files.length; i++) bytes.write(files[i], offsets[i]);
  return { paths, offsets: offsets.buffer as SharedArrayBuffer };
}

/** A small young generation: a worker's garbage is per-file buffers and strings, collected often. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4 };

/** node:worker_threads is loaded on the first search: a run that never greps does not pay for it. */
let workerModule: Promise<typeof import("node:worker_threads")> | undefined;

const WORKERS = 2;

export async function searchFiles(
  req: SearchRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<SearchOutcome> {
  if (signal.aborted) return { kind: "cancelled" };
  workerModule ??= import("node:worker_threads");
  const { Worker: WorkerClass } = await workerModule;
  if (signal.aborted) return { kind: "cancelled" };
  const counter = new SharedArrayBuffer(4);
  const { files, ...rest } = req;
  const shared = sharedPaths(files);
  const count = Math.max(1, Math.min(WORKERS, Math.ceil(req.files.length / 64)));
  return new Promise((resolve) => {
    const workers: Worker[] = [];
    const parts: { matches: SearchMatch[]; total: number; skipped: number }[] = [];
    let settled = false;
    const finish = (outcome: SearchOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      for (const w of workers) void w.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: "timeout" }), timeoutMs);
    const onAbort = () => finish({ kind: "cancelled" });
    signal.addEventListener("abort", onAbort, { once: true });
    for (let i = 0; i < count; i++) {
      const worker = new WorkerClass(WORKER_SOURCE, {
        eval: true,
        workerData: { ...rest, ...shared, counter },
        resourceLimits: WORKER_LIMITS,
      });
      workers.push(worker);
      let answered = false;
      worker.on("message", (m: { matches: SearchMatch[]; total: number; skipped: number }) => {
        answered = true;
        parts.push(m);
        if (parts.length < count) return;
        const matches = parts
          .flatMap((p) => p.matches)
          .sort((a, b) => a.file - b.file || a.line - b.line)
          .slice(0, req.maxMatches);
        const sum = (key: "total" | "skipped") => parts.reduce((n, p) => n + p[key], 0);
        finish({ kind: "done", matches, total: sum("total"), skipped: sum("skipped") });
      });
      worker.on("error", (err) => finish({ kind: "failed", message: err.message }));
      worker.on("exit", () => {
        if (!answered) finish({ kind: "failed", message: "the search stopped unexpectedly" });
      });
    }
  });
}
