// The search loop of grep runs in a worker thread: a JavaScript regex cannot be interrupted on
// the thread that runs it, so a runaway pattern (catastrophic backtracking) would freeze tern,
// Ctrl+C included. The worker is terminated on timeout or cancel (R-TOOL-6). The worker's code
// is plain JavaScript in a string, so it runs the same from sources and from the bundle.
import type { Worker } from "node:worker_threads";

export interface SearchRequest {
  pattern: string;
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
const { pattern, files, maxMatches, maxLineChars, maxFileBytes } = workerData;
const re = new RegExp(pattern);
const matches = [];
let total = 0;
let skipped = 0;
for (let f = 0; f < files.length; f++) {
  let buf;
  let fd;
  try {
    // Non-blocking open and a check on the descriptor: a FIFO or device is skipped, never read.
    fd = fs.openSync(files[f], fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > maxFileBytes) { skipped++; continue; }
    buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < buf.length) { const n = fs.readSync(fd, buf, off, buf.length - off, null); if (n === 0) break; off += n; }
    buf = buf.subarray(0, off);
  } catch { skipped++; continue; } finally { if (fd !== undefined) fs.closeSync(fd); }
  if (buf.subarray(0, 8192).includes(0)) continue;
  const lines = buf.toString("utf8").split(/\\r?\\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!re.test(lines[i])) continue;
    total++;
    if (matches.length < maxMatches) {
      const text = lines[i].length > maxLineChars ? lines[i].slice(0, maxLineChars) + "…" : lines[i];
      matches.push({ file: f, line: i + 1, text });
    }
  }
}
parentPort.postMessage({ matches, total, skipped });
`;

/** node:worker_threads is loaded on the first search: a run that never greps does not pay for it. */
let workerClass: Promise<typeof Worker> | undefined;

export async function searchFiles(
  req: SearchRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<SearchOutcome> {
  if (signal.aborted) return { kind: "cancelled" };
  workerClass ??= import("node:worker_threads").then((m) => m.Worker);
  const WorkerClass = await workerClass;
  if (signal.aborted) return { kind: "cancelled" };
  return new Promise((resolve) => {
    const worker = new WorkerClass(WORKER_SOURCE, { eval: true, workerData: req });
    let settled = false;
    const finish = (outcome: SearchOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: "timeout" }), timeoutMs);
    const onAbort = () => finish({ kind: "cancelled" });
    signal.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (m: { matches: SearchMatch[]; total: number; skipped: number }) =>
      finish({ kind: "done", ...m }),
    );
    worker.on("error", (err) => finish({ kind: "failed", message: err.message }));
    worker.on("exit", () => finish({ kind: "failed", message: "the search stopped unexpectedly" }));
  });
}
