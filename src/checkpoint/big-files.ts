// Files held as the placeholder text (over 10 MB by length or by allocated blocks). Their index
// entries carry no stat data (`update-index --index-info` writes none), so every later
// `ls-files --modified` would hash the whole file to compare it: a sparse 4 GB file from
// `truncate -s 4G` made each snapshot read 4 GB. They are marked assume-unchanged so git never
// looks at them, and the session's list of them (a file beside its index) is checked by size
// here each snapshot instead: one that shrank or went away is unmarked and staged again.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { nul } from "./git-process.js";
import { tooBig } from "./what-to-keep.js";

interface ShadowRepo {
  readonly workTree: string;
  readonly tooBigBlob: string;
  git(args: string[], input?: string): Promise<{ stdout: string }>;
}

export class BigFiles {
  private paths: Set<string> | undefined;

  constructor(private readonly listFile: string) {}

  private load(): Set<string> {
    this.paths ??= new Set(
      existsSync(this.listFile) ? readFileSync(this.listFile, "utf8").split("\0").filter(Boolean) : [],
    );
    return this.paths;
  }

  private save(): void {
    writeFileSync(this.listFile, [...this.load()].join("\0"));
  }

  /** Whether `path` is held as the placeholder now. */
  holds(path: string): boolean {
    return this.load().has(path);
  }

  /** Known big files that are no longer big (or gone): unmarked, for the caller to stage again. */
  async released(repo: ShadowRepo): Promise<string[]> {
    const known = this.load();
    const gone = [...known].filter((path) => !tooBig(join(repo.workTree, path)));
    if (gone.length === 0) return [];
    // A path the index no longer holds (an undo forgot it) has no mark to clear: fine.
    await repo
      .git(["update-index", "-z", "--no-assume-unchanged", "--stdin"], nul(gone))
      .catch(() => undefined);
    for (const path of gone) known.delete(path);
    this.save();
    return gone;
  }

  /** Paths whose entries were replaced (a pre-image, pre-images.ts): no longer held, nor marked. */
  async drop(repo: ShadowRepo, paths: readonly string[]): Promise<void> {
    const known = this.load();
    const held = paths.filter((path) => known.has(path));
    if (held.length === 0) return;
    await repo.git(["update-index", "-z", "--no-assume-unchanged", "--stdin"], nul(held));
    for (const path of held) known.delete(path);
    this.save();
  }

  /** Puts the placeholder in the index for each of `paths`, marked so git never reads the file. */
  async hold(repo: ShadowRepo, paths: readonly string[]): Promise<void> {
    if (paths.length === 0) return;
    const info = paths.map((path) => `100644 ${repo.tooBigBlob}\t${path}\0`).join("");
    await repo.git(["update-index", "-z", "--add", "--index-info"], info);
    await repo.git(["update-index", "-z", "--assume-unchanged", "--stdin"], nul(paths));
    const known = this.load();
    for (const path of paths) known.add(path);
    this.save();
  }
}
