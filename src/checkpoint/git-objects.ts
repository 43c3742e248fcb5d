// Reading and writing the shadow's git objects in-process, for the watched snapshot
// (watched-snapshot.ts): a later snapshot of a big workspace that knows which few paths were
// written needs a few blobs, the trees on their paths and a commit — each a sha1 and a zlib
// stream, not a git process reading the whole 7 MB index. Objects are written loose (as git
// writes them: `<type> <size>\0<body>` deflated at zlib's fastest level, core.looseCompression's
// default, into a temporary file renamed into place); trees are read loose, and from `git cat-file
// --batch` (one process kept while the session lives) when git holds them packed or borrowed.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync, inflateSync } from "node:zlib";

export interface TreeEntry {
  /** git's mode as a tree writes it: "40000", "100644", "100755", "120000", "160000". */
  mode: string;
  /** The name's bytes (a name need not be UTF-8; untouched entries are written back as read). */
  name: Buffer;
  /** The object's id, 20 bytes. */
  id: Buffer;
}

export const TREE_MODE = "40000";

/** An object's id (hex) for its type and body. */
export function objectId(type: string, body: Buffer): string {
  return createHash("sha1").update(`${type} ${body.length}\0`).update(body).digest("hex");
}

/** The entries of a tree object's body, in order. */
export function parseTree(body: Buffer): TreeEntry[] {
  const out: TreeEntry[] = [];
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const nul = body.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > body.length) throw new Error("a malformed tree object");
    out.push({
      mode: body.toString("latin1", at, space),
      name: body.subarray(space + 1, nul),
      id: body.subarray(nul + 1, nul + 21),
    });
    at = nul + 21;
  }
  return out;
}

const SLASH = Buffer.from("/");

/** git's order: by name bytes, a tree's name compared as if it ended in "/". */
function sortKey(e: TreeEntry): Buffer {
  return e.mode === TREE_MODE ? Buffer.concat([e.name, SLASH]) : e.name;
}

/** A tree object's body for `entries` (sorted here): one buffer, each entry copied in once. */
export function formatTree(entries: readonly TreeEntry[]): Buffer {
  const keyed = entries.map((e) => ({ e, key: sortKey(e) }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  let size = 0;
  for (const { e } of keyed) size += e.mode.length + 1 + e.name.length + 1 + 20;
  const body = Buffer.allocUnsafe(size);
  let at = 0;
  for (const { e } of keyed) {
    at += body.write(e.mode, at, "latin1");
    body[at++] = 0x20;
    at += e.name.copy(body, at);
    body[at++] = 0;
    at += e.id.copy(body, at, 0, 20);
  }
  return body;
}

/** A commit's body as `git commit-tree -m label` writes it (tern's fixed name, UTC). */
export function formatCommit(tree: string, parent: string | undefined, label: string, when: Date): Buffer {
  const stamp = `${Math.floor(when.getTime() / 1000)} +0000`;
  const lines = [`tree ${tree}`];
  if (parent) lines.push(`parent ${parent}`);
  lines.push(`author tern <tern@localhost> ${stamp}`, `committer tern <tern@localhost> ${stamp}`, "", label);
  return Buffer.from(`${lines.join("\n")}\n`);
}

let tmpSeq = 0;

/** The shadow's object store, written and read in-process. */
export class LooseObjects {
  private readonly treeCache = new Map<string, TreeEntry[]>();
  private batch: BatchReader | undefined;

  /** `objectsDir`: the shadow's `objects`; `catFile`: how to start `git cat-file --batch` there. */
  constructor(
    private readonly objectsDir: string,
    private readonly catFile: () => { command: string; args: string[]; env: NodeJS.ProcessEnv; cwd: string },
  ) {}

  private pathOf(id: string): string {
    return join(this.objectsDir, id.slice(0, 2), id.slice(2));
  }

  /** Writes an object (unless loose already) and returns its id. */
  write(type: "blob" | "tree" | "commit", body: Buffer): string {
    const id = objectId(type, body);
    const path = this.pathOf(id);
    if (existsSync(path)) return id;
    const folder = join(this.objectsDir, id.slice(0, 2));
    mkdirSync(folder, { recursive: true });
    const tmp = join(folder, `tmp_obj_tern_${process.pid}_${++tmpSeq}`);
    writeFileSync(
      tmp,
      deflateSync(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]), { level: 1 }),
      {
        mode: 0o444,
      },
    );
    renameSync(tmp, path);
    return id;
  }

  writeTree(entries: readonly TreeEntry[]): string {
    const id = this.write("tree", formatTree(entries));
    this.remember(id, [...entries]);
    return id;
  }

  /** A tree's entries: from memory, a loose object, or git (packed or borrowed objects). */
  async readTree(id: string): Promise<TreeEntry[]> {
    const known = this.treeCache.get(id);
    if (known) return known;
    let body: Buffer | undefined;
    try {
      const raw = inflateSync(readFileSync(this.pathOf(id)));
      const nul = raw.indexOf(0);
      if (raw.toString("latin1", 0, 5) !== "tree ") throw new Error(`${id} is not a tree`);
      body = raw.subarray(nul + 1);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
    body ??= await this.batchReader().read(id, "tree");
    const entries = parseTree(body);
    this.remember(id, entries);
    return entries;
  }

  private remember(id: string, entries: TreeEntry[]): void {
    // Trees never change (their id is their content): a bound keeps the cache from growing for good.
    if (this.treeCache.size >= 4096) this.treeCache.clear();
    this.treeCache.set(id, entries);
  }

  private batchReader(): BatchReader {
    this.batch ??= new BatchReader(this.catFile());
    return this.batch;
  }

  close(): void {
    this.batch?.close();
    this.batch = undefined;
  }
}

/** `git cat-file --batch`, one request at a time. */
class BatchReader {
  private readonly child: ChildProcess;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: ((chunk: Buffer | Error) => void) | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private failed: Error | undefined;

  constructor(how: { command: string; args: string[]; env: NodeJS.ProcessEnv; cwd: string }) {
    this.child = spawn(how.command, how.args, {
      env: how.env,
      cwd: how.cwd,
      stdio: ["pipe", "pipe", "ignore"],
    });
    const fail = (err: Error) => {
      this.failed ??= err;
      this.waiting?.(err);
    };
    this.child.on("error", fail);
    this.child.on("exit", () => fail(new Error("git cat-file ended")));
    this.child.stdin?.on("error", fail);
    this.child.stdout?.on("data", (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.waiting?.(this.buffered);
    });
    this.child.unref();
    (this.child.stdout as unknown as { unref?: () => void })?.unref?.();
  }

  read(id: string, type: string): Promise<Buffer> {
    const next = this.queue.then(() => this.readNow(id, type));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private readNow(id: string, type: string): Promise<Buffer> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise<Buffer>((resolve, reject) => {
      const take = (got: Buffer | Error) => {
        if (got instanceof Error) return reject(got);
        const eol = got.indexOf(0x0a);
        if (eol < 0) return;
        const header = got.toString("latin1", 0, eol).split(" ");
        if (header[1] !== type) {
          this.waiting = undefined;
          this.buffered = got.subarray(eol + 1);
          return reject(new Error(`${id}: ${header.slice(1).join(" ")}`));
        }
        const size = Number(header[2]);
        if (got.length < eol + 1 + size + 1) return;
        this.waiting = undefined;
        this.buffered = got.subarray(eol + 1 + size + 1);
        resolve(Buffer.from(got.subarray(eol + 1, eol + 1 + size)));
      };
      this.waiting = take;
      this.child.stdin?.write(`${id}\n`);
      take(this.buffered);
    });
  }

  close(): void {
    this.child.stdin?.end();
    this.child.kill();
  }
}
