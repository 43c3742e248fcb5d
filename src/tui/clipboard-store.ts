// Where Ctrl+V's images are kept (R-UI-21), so a prompt recalled from history in a later process
// (Up, Ctrl+R) still sends the image its `@clipboard-N.png` names:
// `TERN_HOME/clipboard/<workspace hash>/<session id>/clipboard-N.png`. N is unique in the
// workspace (one past the highest kept), so a name from history finds one file. Bounded: the
// newest MAX_PER_SESSION images of a session (MAX_SESSION_BYTES at most) and the newest
// MAX_SESSIONS sessions of a workspace are kept; a session's folder goes with the session (once its record is gone, the next paste
// removes it). Best effort: an image that cannot be kept is still attached in this process.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { workspaceHash } from "./history-store.js";

const MAX_PER_SESSION = 50;
/** Bytes of a session's kept images at most (provider limits let one image be up to ~20 MB). */
const MAX_SESSION_BYTES = 100 * 1024 * 1024;
const MAX_SESSIONS = 20;
const NAME = /^clipboard-(\d+)\.[a-z]+$/;

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function stat(path: string): { mtimeMs: number; size: number } {
  try {
    return statSync(path);
  } catch {
    return { mtimeMs: 0, size: 0 };
  }
}
const mtime = (path: string) => stat(path).mtimeMs;
const fileSize = (path: string) => stat(path).size;

export interface ClipboardStoreDeps {
  home: string;
  cwd: string;
  /** The current session's id (it changes with /clear, /resume, /fork). */
  session(): string;
  /** The workspace's sessions that still exist, for removing the folders of those gone. */
  sessions(): Promise<readonly string[]>;
}

export class ClipboardStore {
  private readonly root: string;

  constructor(private readonly deps: ClipboardStoreDeps) {
    // The key the prompt history uses for the workspace.
    this.root = join(deps.home, "clipboard", workspaceHash(deps.cwd));
  }

  /** One past the highest N kept in this workspace (1 when none is). */
  nextNumber(): number {
    let max = 0;
    for (const session of list(this.root))
      for (const name of list(join(this.root, session))) {
        const n = Number(NAME.exec(name)?.[1] ?? 0);
        if (n > max) max = n;
      }
    return max + 1;
  }

  save(name: string, bytes: Buffer): void {
    const dir = join(this.root, this.deps.session());
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(join(dir, name), bytes, { mode: 0o600 });
    } catch {
      // A read-only TERN_HOME: the image still goes with prompts of this process.
      return;
    }
    void this.prune(dir).catch(() => {});
  }

  /** A kept image by its name, from whichever session of the workspace pasted it. */
  load(name: string): Buffer | undefined {
    if (!NAME.test(name)) return undefined; // names come from typed text: never let one be a path
    for (const session of list(this.root)) {
      try {
        return readFileSync(join(this.root, session, name));
      } catch {
        // Not this session's.
      }
    }
    return undefined;
  }

  private async prune(current: string): Promise<void> {
    const images = list(current)
      .filter((n) => NAME.test(n))
      .sort((a, b) => Number(NAME.exec(a)?.[1]) - Number(NAME.exec(b)?.[1]));
    let bytes = 0;
    for (const [i, name] of [...images].reverse().entries()) {
      bytes += fileSize(join(current, name));
      if (i > 0 && (i >= MAX_PER_SESSION || bytes > MAX_SESSION_BYTES))
        rmSync(join(current, name), { force: true });
    }
    const live = new Set(await this.deps.sessions());
    const others = list(this.root)
      .filter((s) => s !== this.deps.session())
      .map((s) => ({ s, at: mtime(join(this.root, s)) }))
      .sort((a, b) => b.at - a.at);
    for (const [i, { s }] of others.entries())
      if (!live.has(s) || i >= MAX_SESSIONS - 1) rmSync(join(this.root, s), { recursive: true, force: true });
  }
}
