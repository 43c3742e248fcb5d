// git's fsmonitor hook (protocol version 2) for a session's git folder: git runs it with the
// token its index holds and reads back a new token, a NUL, and the paths changed since (each
// ended by a NUL; "/" means "everything"). The answer is prepared by tern right before each
// snapshot (`prepare`, from change-watch.ts) into files beside the hook, which only picks one:
// - the token of the last answer's predecessor (what the index holds after the last snapshot's
//   status): the paths changed since, as prepared;
// - the newest token (a command later in the same snapshot: update-index, write-tree): nothing;
//   what changed meanwhile is in the next answer, whose status is given the paths;
// - any other (an index copied from another session, one git could not write, a first query):
//   everything, so git compares every file as it does without a hook.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const HOOK = `#!/bin/sh
# tern's fsmonitor answer (git protocol 2): $2 is the token the index holds.
IFS= read -r since < "\${0%/*}/fsmonitor-since"
IFS= read -r tok < "\${0%/*}/fsmonitor-token"
if [ "$2" = "$since" ]; then exec cat "\${0%/*}/fsmonitor-answer"; fi
if [ "$2" = "$tok" ]; then printf '%s\\0' "$tok"; else printf '%s\\0/\\0' "$tok"; fi
`;

/** git runs the hook through a shell when its path holds anything else: such a path gets no hook. */
const PLAIN_PATH = /^[A-Za-z0-9/._+-]+$/;

export class FsmonitorHook {
  readonly path: string;
  private token = "";
  private seq = 0;

  constructor(private readonly folder: string) {
    this.path = join(folder, "fsmonitor-hook");
  }

  /** Writes the hook and a first answer ("everything"); false when the folder's path cannot hold one. */
  install(): boolean {
    if (!PLAIN_PATH.test(this.path)) return false;
    try {
      writeFileSync(this.path, HOOK, { mode: 0o755 });
      chmodSync(this.path, 0o755);
      this.prepare(undefined);
      return true;
    } catch {
      return false;
    }
  }

  /** The answer for the next snapshot: `paths` changed since the last one, or undefined for everything. */
  prepare(paths: readonly string[] | undefined): void {
    const since = this.token;
    this.token = `tern-${process.pid}-${Date.now()}-${++this.seq}`;
    // A folder's path names what is below it too (a folder removed or moved: its files went).
    const listed = paths === undefined ? "/\0" : paths.map((p) => `${p}\0${p}/\0`).join("");
    writeFileSync(join(this.folder, "fsmonitor-answer"), `${this.token}\0${listed}`);
    writeFileSync(join(this.folder, "fsmonitor-since"), `${since || "none"}\n`);
    writeFileSync(join(this.folder, "fsmonitor-token"), `${this.token}\n`);
  }
}
