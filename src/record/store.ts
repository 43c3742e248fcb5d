// Where sessions live: $TERN_HOME/sessions/<workspace-key>/<session-id>/record.jsonl plus
// attachments/ and the derived meta.json. Listing reads meta.json, never whole records,
// unless the summary is missing or stale.
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { DiskError, RecordError, rethrowAsDisk } from "./errors.js";
import { sha256Hex } from "./sha256.js";
import { lockSession } from "./lock.js";
import { loadRecord } from "./load.js";
import {
  emptyMeta,
  metaFromLines,
  RECORD_FILE,
  readFreshMeta,
  type SessionMeta,
  startedByTask,
  totalCost,
  updateMeta,
  writeMeta,
} from "./meta.js";
import type { ForkParent, RecordLine } from "./types.js";
import { RecordWriter, type WriterOptions } from "./writer.js";

export function sessionsRoot(home: string): string {
  return join(home, "sessions");
}

/** The folder of a workspace's sessions (one folder per session inside). */
export function workspaceSessionsDir(home: string, cwd: string): string {
  return join(sessionsRoot(home), workspaceKey(cwd));
}

/** Readable and collision-free: sanitized basename + a hash of the absolute path. */
export function workspaceKey(cwd: string): string {
  const abs = resolve(cwd);
  const name =
    basename(abs)
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .replace(/^\.+/, "")
      .slice(0, 40) || "root";
  return `${name}-${sha256Hex(abs).slice(0, 10)}`;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/**
 * `YYYYMMDD-HHMMSS-xxxxxx` (UTC time, random hex): sorts by creation second. The random part only
 * has to differ between sessions started in the same second (createSession retries a taken id), so
 * Math.random serves and no start loads node:crypto for it.
 */
export function newSessionId(now: Date = new Date()): string {
  const d = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const t = `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  const random = Math.floor(Math.random() * 0x1000000);
  return `${d}-${t}-${random.toString(16).padStart(6, "0")}`;
}

export function recordFile(sessionDir: string): string {
  return join(sessionDir, RECORD_FILE);
}

export interface CreateSessionOptions {
  cwd: string;
  model: string;
  parent?: ForkParent;
  now?: () => Date;
}

export interface SessionHandle {
  id: string;
  dir: string;
  file: string;
  writer: RecordWriter;
}

/** A writer that also keeps meta.json current (written at session start, turn end, clear, model switch). */
function trackedWriter(dir: string, meta: SessionMeta, opts: WriterOptions): RecordWriter {
  // R-REC-9: taken before the first byte is written (opening may cut a torn tail), held until close.
  const lock = lockSession(dir, basename(dir));
  try {
    // Folders an older tern created world-readable are narrowed when next written (R-REC-9).
    narrow(dir, 0o700);
    return openTracked(dir, meta, { ...opts, onClose: () => lock.release() });
  } catch (err) {
    lock.release();
    throw err;
  }
}

function narrow(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch {
    // Not ours to change (another owner): the files inside are still created private.
  }
}

/**
 * meta.json is a cache of the record: one the disk refused is stale (its size no longer matches)
 * and rebuilt from the record at the next listing, so what was committed stands.
 */
function keepMeta(dir: string, meta: SessionMeta): void {
  try {
    writeMeta(dir, meta);
  } catch (err) {
    if (!(err instanceof DiskError)) throw err;
  }
}

function openTracked(dir: string, meta: SessionMeta, opts: WriterOptions): RecordWriter {
  return RecordWriter.open(recordFile(dir), {
    ...opts,
    onAppend: (line, writer) => {
      updateMeta(meta, line);
      opts.onAppend?.(line, writer);
      if (
        line.type === "session_start" ||
        line.type === "turn_end" ||
        line.type === "cleared" ||
        line.type === "config"
      ) {
        meta.recordSize = writer.size;
        keepMeta(dir, meta);
      }
    },
  });
}

/** A private folder; a full disk is named as such (DiskError), not as an internal error. */
function makeDir(dir: string, recursive: boolean): void {
  try {
    mkdirSync(dir, { recursive, mode: 0o700 });
  } catch (err) {
    rethrowAsDisk(err, dir);
  }
}

/** Creates the session folder and writes its `session_start`. */
export function createSession(home: string, opts: CreateSessionOptions): SessionHandle {
  const cwd = resolve(opts.cwd);
  const wsDir = workspaceSessionsDir(home, cwd);
  // Private (R-REC-9): records hold prompts, code and tool output.
  makeDir(wsDir, true);
  const now = opts.now ?? (() => new Date());
  for (let attempt = 0; ; attempt++) {
    const id = newSessionId(now());
    const dir = join(wsDir, id);
    try {
      mkdirSync(dir, { mode: 0o700 }); // not recursive: EEXIST means another session took this id
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST" && attempt < 20) continue;
      rethrowAsDisk(err, dir);
    }
    makeDir(join(dir, "attachments"), false);
    const writer = trackedWriter(dir, emptyMeta(), { now });
    writer.append({
      type: "session_start",
      id,
      cwd,
      model: opts.model,
      ...(opts.parent ? { parent: opts.parent } : {}),
    });
    return { id, dir, file: recordFile(dir), writer };
  }
}

/**
 * Opens an existing session for appending (resume). Pass the loaded `lines` to spare a second
 * parse when meta.json is stale.
 */
export function openSessionWriter(
  dir: string,
  opts: WriterOptions & { lines?: readonly RecordLine[] } = {},
): RecordWriter {
  const meta = readFreshMeta(dir) ?? metaFromLines(opts.lines ?? loadRecord(recordFile(dir)).lines, 0);
  const writer = trackedWriter(dir, meta, opts);
  meta.recordSize = writer.size;
  keepMeta(dir, meta);
  return writer;
}

export interface SessionDirRef {
  id: string;
  dir: string;
}

function listDirs(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
}

function workspaceSessions(home: string, cwd: string): SessionDirRef[] {
  const wsDir = workspaceSessionsDir(home, cwd);
  return listDirs(wsDir)
    .filter((id) => existsSync(join(wsDir, id, RECORD_FILE)))
    .map((id) => ({ id, dir: join(wsDir, id) }));
}

/**
 * Finds a session in any workspace by id or unique id prefix. Undefined when none matches;
 * throws RecordError naming the candidates when the prefix is ambiguous.
 */
export function findSession(home: string, idOrPrefix: string): SessionDirRef | undefined {
  if (!idOrPrefix || /[/\\]/.test(idOrPrefix)) return undefined;
  const root = sessionsRoot(home);
  const hits: SessionDirRef[] = [];
  for (const ws of listDirs(root)) {
    for (const id of listDirs(join(root, ws))) {
      if (id === idOrPrefix) return { id, dir: join(root, ws, id) };
      if (id.startsWith(idOrPrefix)) hits.push({ id, dir: join(root, ws, id) });
    }
  }
  if (hits.length > 1) {
    const names = hits.map((h) => h.id).sort();
    throw new RecordError(
      `session id '${idOrPrefix}' is ambiguous: ${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""}`,
    );
  }
  return hits[0];
}

/** The newest top-level session of this workspace (record mtime), for `--continue` (R-REC amended). */
export function latestSession(home: string, cwd: string): SessionDirRef | undefined {
  const byAge = workspaceSessions(home, cwd)
    .map((s) => ({ ...s, mtime: statSync(join(s.dir, RECORD_FILE)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || b.id.localeCompare(a.id));
  const best = byAge.find((s) => !startedByTask(s.dir));
  return best && { id: best.id, dir: best.dir };
}

export interface SessionSummary {
  id: string;
  dir: string;
  started: string;
  turns: number;
  title: string;
  /** USD sum of turn costs; null when any turn's cost is unknown. */
  cost: number | null;
  model: string;
  parent?: ForkParent;
  /** Set when the record could not be read; the other fields are then empty. */
  error?: string;
}

/** The summary of one session, rebuilding (and rewriting) meta.json when it is stale. */
export function sessionMeta(dir: string): SessionMeta {
  const fresh = readFreshMeta(dir);
  if (fresh) return fresh;
  const file = recordFile(dir);
  const size = statSync(file).size;
  const meta = metaFromLines(loadRecord(file).lines, size);
  keepMeta(dir, meta);
  return meta;
}

/** Sessions of this workspace, newest first. */
export function listSessions(home: string, cwd: string): SessionSummary[] {
  const out: SessionSummary[] = [];
  for (const s of workspaceSessions(home, cwd)) {
    try {
      const m = sessionMeta(s.dir);
      out.push({
        id: s.id,
        dir: s.dir,
        started: m.started,
        turns: m.turns,
        title: m.title,
        cost: totalCost(m),
        model: m.model,
        ...(m.parent ? { parent: m.parent } : {}),
      });
    } catch (err) {
      out.push({
        id: s.id,
        dir: s.dir,
        started: "",
        turns: 0,
        title: "",
        cost: null,
        model: "",
        error: (err as Error).message,
      });
    }
  }
  return out.sort((a, b) =>
    a.started === b.started ? b.id.localeCompare(a.id) : b.started.localeCompare(a.started),
  );
}
