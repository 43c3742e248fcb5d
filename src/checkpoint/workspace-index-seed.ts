// The first session of a workspace that is a git repository starts its index from the
// workspace's own `.git/index` (R-BIG-4): the user's index already holds every tracked file's
// stat data and blob id, so the first snapshot is incremental — `git status` lstats the files,
// and only what differs from the user's index (their uncommitted edits) and the untracked files
// are read and hashed — instead of hashing 100,000 files beside the first turn. The blobs it
// names stay in the workspace's object store, borrowed read-only (borrowed-objects.ts: only
// commands that read objects see it, so git never freshens a file there); nothing is ever
// written into the workspace's `.git`.
//
// A linked worktree (its `.git` a file naming its own git folder) takes its own index and HEAD
// and the main repository's objects, refs and config. Only an index whose every entry means "this
// file, as staged" to the shadow is taken; else the full first snapshot, as before (the reason is
// kept in `workspaceSeed.why`): a SHA-256 or partial-clone repository (`[extensions]`), line-ending
// settings or another work tree (a submodule's git folder) in a config, a tracked `.gitattributes`
// naming a filter (the user's blobs would be the filter's output), a split or sparse index,
// conflicts, skip-worktree, assume-unchanged or intent-to-add entries, submodules (snapshots walk
// into nested repositories instead), tracked files in a folder the shadow leaves out, or an index
// this parser cannot read. Of the extensions only the cached trees are kept (the untracked cache
// and fsmonitor data were the user's), and the copy keeps the user's index's mtime so git's
// racy-file check judges each entry as it would in the user's repository.
import { existsSync, lstatSync, readFileSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { borrowObjects } from "./borrowed-objects.js";
import { cachedTrees, parseIndexFile, pathText, withExtensions } from "./git-index-file.js";

interface Seedable {
  /** The shadow repository. */
  gitDir: string;
  /** The session's index file (absent: this is a first snapshot). */
  indexFile: string;
  workTree: string;
  /** Folders inside the workspace the shadow leaves out (tern's home). */
  leaveOut: readonly string[];
  git(args: string[], input?: string): Promise<{ stdout: string }>;
}

export type WorkspaceSeed = { seeded: true; files: number } | { seeded: false; why: string };

const read = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};

// Settings under which the user's blobs are not what the shadow (no user config) would write:
// `autocrlf`/`eol` convert on staging; a global attributes file adds rules the shadow lacks; a
// `worktree` names another work tree for this index; `[extensions]` holds objectformat (SHA-256),
// partialclone (blobs missing) and worktreeConfig (per-worktree settings).
const CONVERTING_CONFIG =
  /^\s*(autocrlf\s*=\s*(true|input)|eol\s*=\s*crlf|attributesfile\s*=|worktree\s*=)|^\s*\[\s*extensions\s*\]/im;
/** A filter driver is defined in config the shadow does not read (`text`/`eol`/`ident` apply alike). */
const CONVERTING_ATTRIBUTES = /\bfilter\s*=/;

function configWhy(common: string): string | undefined {
  const local = read(join(common, "config"));
  if (CONVERTING_CONFIG.test(local))
    return "its config converts line endings, names a work tree or has extensions";
  const xdg = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  for (const file of [join(homedir(), ".gitconfig"), join(xdg, "git", "config"), "/etc/gitconfig"])
    if (CONVERTING_CONFIG.test(read(file))) return `${file} converts line endings`;
  if (/^\s*\[\s*include/im.test(local)) return "the repository's config includes other files";
  return undefined;
}

/**
 * The repository's folders: its own (index, HEAD) and the common one (objects, refs, config). A
 * `.git` folder is both; a linked worktree's `.git` file names its own folder, whose `commondir`
 * names the main repository's.
 */
function gitFolders(workTree: string): { own: string; common: string } | string {
  const dotGit = join(workTree, ".git");
  const kind = lstatSync(dotGit, { throwIfNoEntry: false });
  if (kind?.isDirectory()) return { own: dotGit, common: dotGit };
  if (!kind?.isFile())
    return kind ? "the workspace's .git is neither a folder nor a file" : "not a git repository";
  const named = /^gitdir: (.+)$/m.exec(read(dotGit))?.[1]?.trim();
  if (!named) return "the workspace's .git file names no git folder";
  const own = resolve(workTree, named);
  const common = read(join(own, "commondir")).trim();
  return { own, common: common ? resolve(own, common) : own };
}

/** Whether a path lies inside the workspace (relative form) or not (undefined). */
function inside(workTree: string, path: string): string | undefined {
  const rel = relative(workTree, path);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
  return `${rel.split(sep).join("/")}/`;
}

/**
 * Seeds the session index from the workspace's own index when that is safe, else says why not;
 * and starts the session's ref (`ref`) at a commit of the workspace's HEAD tree, so the first
 * `git status` compares the index with that (a few entries differ) instead of listing 100,000
 * entries as new against no commit.
 */
export async function seedFromWorkspaceIndex(repo: Seedable, ref: string): Promise<WorkspaceSeed> {
  let seeded: WorkspaceSeed;
  const trees: string[] = [];
  const found: { head?: string } = {};
  try {
    seeded = seed(repo, trees, found);
  } catch (err) {
    // Unreadable files, a full disk: the full first snapshot, as without a repository.
    return { seeded: false, why: (err as Error).message };
  }
  if (!seeded.seeded) return seeded;
  try {
    // The cached trees into a pack of the shadow's own (pack-objects reads them from the store and
    // writes only its pack): write-tree, which never sees the store, then trusts them.
    if (trees.length > 0) {
      const base = join(repo.gitDir, "objects", "pack", "pack");
      await repo.git(["pack-objects", "--quiet", "--window=0", base], `${trees.join("\n")}\n`);
    }
  } catch {
    // write-tree then writes every tree itself, as for an index with no cached trees.
  }
  if (found.head) {
    try {
      const commit = await repo.git(["commit-tree", `${found.head}^{tree}`, "-m", "the workspace's HEAD"]);
      // Only where the ref does not exist yet: a session whose index was pruned keeps its snapshots.
      await repo.git(["update-ref", ref, commit.stdout.trim(), "0".repeat(40)]);
    } catch {
      // An unborn or unreadable HEAD, or a ref already there: status lists more, no harm.
    }
  }
  return seeded;
}

/** The workspace's HEAD commit, read from its files (detached, a loose ref or a packed one). */
function workspaceHead(own: string, common: string): string | undefined {
  let head = read(join(own, "HEAD")).trim();
  for (let depth = 0; depth < 5 && head.startsWith("ref: "); depth++) {
    const name = head.slice(5).trim();
    const packed = () =>
      read(join(common, "packed-refs"))
        .split("\n")
        .find((line) => line.endsWith(` ${name}`))
        ?.split(" ")[0];
    head = read(join(common, name)).trim() || (packed() ?? "");
  }
  return /^[0-9a-f]{40}$/.test(head) ? head : undefined;
}

/** Seeds the index; `trees` receives the ids of the user's cached trees, `found` its HEAD commit. */
function seed(repo: Seedable, trees: string[], found: { head?: string }): WorkspaceSeed {
  const no = (why: string): WorkspaceSeed => ({ seeded: false, why });
  if (existsSync(repo.indexFile)) return no("the session has an index");
  const folders = gitFolders(repo.workTree);
  if (typeof folders === "string") return no(folders);
  const { own, common } = folders;
  const indexPath = join(own, "index");
  const indexStat = lstatSync(indexPath, { throwIfNoEntry: false });
  if (!indexStat?.isFile()) return no("the repository has no index");
  const configured = configWhy(common);
  if (configured) return no(configured);
  if (read(join(common, "info", "attributes")).trim()) return no("the repository has info/attributes");
  const bytes = readFileSync(indexPath);
  let index: ReturnType<typeof parseIndexFile>;
  try {
    index = parseIndexFile(bytes);
  } catch (err) {
    return no(`its index could not be read (${(err as Error).message})`);
  }
  const signatures = index.extensions.map((ext) => ext.signature);
  if (signatures.includes("link")) return no("a split index");
  if (signatures.includes("sdir")) return no("a sparse index");
  // Compared as raw bytes (latin1), as the parser keeps the paths.
  const leftOut = repo.leaveOut
    .map((path) => inside(repo.workTree, path))
    .filter((p) => p !== undefined)
    .map((p) => Buffer.from(p, "utf8").toString("latin1"));
  for (const entry of index.entries) {
    const raw = entry.rawPath;
    if (entry.stage !== 0) return no(`a conflict at ${pathText(raw)}`);
    if (entry.assumeValid || entry.skipWorktree || entry.intentToAdd)
      return no(`${pathText(raw)} is assume-unchanged, skip-worktree or intent-to-add`);
    const type = entry.mode >>> 12;
    if (type !== 0o10 && type !== 0o12) return no(`${pathText(raw)} is a submodule or a sparse folder`);
    if (leftOut.some((folder) => raw.startsWith(folder))) return no(`${pathText(raw)} is left out`);
    if (
      (raw === ".gitattributes" || raw.endsWith("/.gitattributes")) &&
      CONVERTING_ATTRIBUTES.test(read(join(repo.workTree, pathText(raw))))
    )
      return no(`${pathText(raw)} converts content`);
  }
  // Only tracked `.gitattributes` are checked above: an untracked one is the shadow's to apply.
  // The objects first: an index naming blobs the shadow cannot find would fail a restore.
  if (!borrowObjects(repo.gitDir, join(common, "objects"))) return no("the repository's path holds a colon");
  const temporary = `${repo.indexFile}.seed`;
  // The cached trees stay (write-tree then writes only the trees of what differs; the others are
  // copied into the shadow by the caller); the untracked cache and fsmonitor data go.
  writeFileSync(temporary, withExtensions(bytes, index, ["TREE"]));
  // git distrusts entries whose mtime is not older than the index's (racily clean): keep its time.
  utimesSync(temporary, indexStat.atime, indexStat.mtime);
  renameSync(temporary, repo.indexFile);
  trees.push(...cachedTrees(bytes, index));
  found.head = workspaceHead(own, common);
  return { seeded: true, files: index.entries.length };
}
