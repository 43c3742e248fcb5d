// What git says about the workspace against a session's index: the paths that differ (the
// untracked and the modified lists come from two git processes at once: on a 100,000-file
// workspace each is a walk or a stat of every file, and they share nothing), and how many files
// a first snapshot would hold; and staging what changed.
import { CheckpointError } from "./errors.js";
import { countFilesIn, isFolderEntry } from "./nested-repos.js";

interface ShadowRepo {
  readonly workTree: string;
  git(args: string[], input?: string): Promise<{ stdout: string }>;
}

const entries = (stdout: string) => stdout.split("\0").filter((p) => p.length > 0);

/** Paths that differ from the session index: untracked, modified and deleted. */
export async function changedPaths(repo: ShadowRepo): Promise<string[]> {
  const [others, modified] = await Promise.all([
    repo.git(["ls-files", "-z", "--others", "--exclude-standard"]),
    repo.git(["ls-files", "-z", "--modified"]),
  ]);
  return [...new Set([...entries(others.stdout), ...entries(modified.stdout)])];
}

/**
 * Number of files a first snapshot would hold (for the `checkpoints.maxFiles` limit), counting
 * the files of nested repositories too (snapshots walk into them); counting stops past `cap`.
 */
export async function countFiles(repo: ShadowRepo, cap: number): Promise<number> {
  const { stdout } = await repo.git(["ls-files", "-z", "--others", "--cached", "--exclude-standard"]);
  const listed = entries(stdout);
  let count = listed.filter((p) => !isFolderEntry(p)).length;
  for (const folder of listed.filter(isFolderEntry)) {
    if (count > cap) break;
    count += countFilesIn(repo.workTree, folder, cap - count + 1);
  }
  return count;
}

/**
 * Stages `paths` (what the listing reported, big files left out). A few go through `git add`
 * with literal pathspecs; many (a first snapshot) through `update-index --stdin`, because `git
 * add` matches every path against every pathspec (a first snapshot of 100,000 files took
 * minutes), with the objects streamed into one pack rather than a loose file each (files over
 * core.bigFileThreshold are packed directly, so the threshold is lowered for that command).
 */
export async function stage(repo: ShadowRepo, paths: string[]): Promise<void> {
  const many = paths.length > 1000;
  const args = many
    ? ["-c", "core.bigFileThreshold=1", "update-index", "-z", "--add", "--remove", "--stdin"]
    : ["add", "--all", "--force", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul"];
  const input = many ? `${paths.join("\0")}\0` : `${paths.map((p) => `:(literal)${p}`).join("\0")}\0`;
  await repo.git(args, input).catch(async (err) => {
    // A file removed or made unreadable between listing and staging is no reason to lose the snapshot.
    if (!(err instanceof CheckpointError)) throw err;
    await repo.git(["add", "--all", "--force", "--ignore-errors", "."]);
  });
}
