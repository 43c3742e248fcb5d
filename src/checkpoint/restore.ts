// Restoring the workspace to a snapshot: only the paths that differ between the current state and
// the target are touched, so ignored files and everything git never saw stay exactly as they are.
import { existsSync, mkdirSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isFolderMark, markedFolder } from "./empty-folders.js";
import type { ShadowRepo } from "./shadow-repo.js";

export type RestoreAction =
  | "created"
  | "changed"
  | "deleted"
  | "created folder"
  | "deleted folder"
  /** Over 10 MB when the target snapshot was taken: its content was never kept, so it is left as it is. */
  | "not restored (over 10 MB)";

export interface RestoredPath {
  action: RestoreAction;
  /** Workspace-relative, `/`-separated; folders end with `/`. */
  path: string;
}

/** Folders from `path`'s parent up to (not including) the workspace root. */
function parentFolders(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); dir !== "." && dir !== "/" && dir !== ""; dir = dirname(dir)) out.push(dir);
  return out;
}

function isEmptyDir(path: string): boolean {
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

/** Makes the workspace match `target`, given `current` = a snapshot of the workspace as it is now. */
export async function restoreTree(
  repo: ShadowRepo,
  current: string,
  target: string,
): Promise<RestoredPath[]> {
  const ws = repo.workTree;
  await repo.init();
  const all = await repo.treeChanges(current, target);
  // Empty folders (marks, see empty-folders.ts) are made and removed here, never written as files.
  const marks = all.filter((c) => isFolderMark(c.path));
  const changes = all.filter((c) => !isFolderMark(c.path));
  const report: RestoredPath[] = [];
  const toWrite: string[] = [];
  const foldersBefore = new Set<string>();
  for (const c of all)
    for (const dir of parentFolders(c.path)) if (existsSync(join(ws, dir))) foldersBefore.add(dir);

  // Ignore files first: a turn that removed or edited a .gitignore made files visible that no
  // snapshot before it held (they were ignored then). They are not the turn's to take away.
  const ignoreFiles = changes.filter(
    (c) => basename(c.path) === ".gitignore" && c.toBlob !== repo.tooBigBlob,
  );
  for (const c of ignoreFiles) if (c.status === "D") rmSync(join(ws, c.path), { force: true });
  await repo.checkoutPaths(
    target,
    ignoreFiles.filter((c) => c.status !== "D").map((c) => c.path),
  );
  const keptIgnored = await repo.ignoredPaths(
    changes.filter((c) => c.status === "D" && basename(c.path) !== ".gitignore").map((c) => c.path),
  );

  // Left in place, and out of the index again: ignored as they were before the turn.
  await repo.forget([...keptIgnored]);

  for (const c of changes) {
    if (keptIgnored.has(c.path)) continue;
    if (c.status !== "D" && c.toBlob === repo.tooBigBlob) {
      report.push({ action: "not restored (over 10 MB)", path: c.path });
    } else if (c.status === "D") {
      rmSync(join(ws, c.path), { force: true });
      report.push({ action: "deleted", path: c.path });
    } else {
      toWrite.push(c.path);
      report.push({ action: c.status === "A" ? "created" : "changed", path: c.path });
    }
  }
  // Folders that only held deleted files go with them, deepest first.
  const deleted = report.filter((r) => r.action === "deleted");
  const emptied = [...new Set(deleted.flatMap((r) => parentFolders(r.path)))];
  emptied.sort((a, b) => b.length - a.length);
  for (const dir of emptied) {
    if (toWrite.some((p) => p.startsWith(`${dir}/`)) || !isEmptyDir(join(ws, dir))) continue;
    rmdirSync(join(ws, dir));
    report.push({ action: "deleted folder", path: `${dir}/` });
  }
  // Written below: a folder that will hold any of these is not removed.
  const pending = [...toWrite, ...marks.filter((c) => c.status !== "D").map((c) => c.path)];
  for (const m of marks.filter((c) => c.status === "D")) {
    const dir = markedFolder(m.path).slice(0, -1);
    // Its parents go too when they are left empty and the snapshot has nothing in them.
    for (const folder of [dir, ...parentFolders(dir)]) {
      if (!isEmptyDir(join(ws, folder)) || pending.some((p) => p.startsWith(`${folder}/`))) break;
      rmdirSync(join(ws, folder));
      report.push({ action: "deleted folder", path: `${folder}/` });
    }
  }
  await repo.checkoutPaths(target, toWrite);
  for (const m of marks.filter((c) => c.status !== "D")) {
    const dir = markedFolder(m.path);
    if (existsSync(join(ws, dir))) continue;
    mkdirSync(join(ws, dir), { recursive: true });
    report.push({ action: "created folder", path: dir });
  }
  const created = new Set<string>();
  for (const path of toWrite)
    for (const dir of parentFolders(path))
      if (!foldersBefore.has(dir) && !created.has(dir)) {
        created.add(dir);
        report.push({ action: "created folder", path: `${dir}/` });
      }
  return report;
}
