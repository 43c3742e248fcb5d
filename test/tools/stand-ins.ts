// Stand-in programs for tests that run attack lines in real bash: they record what would have
// happened instead of doing it.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

/** An `rm` that leaves `RAN` in its folder when a run had both -r and -f (any spelling), and deletes nothing. */
export function writeStandInRm(bin: string): void {
  writeFileSync(
    join(bin, "rm"),
    '#!/bin/bash\nr=0; f=0\nfor a in "$@"; do case "$a" in --) break;; --recursive) r=1;; --force) f=1;; --*) ;;' +
      ' -*) [[ "$a" == *[rR]* ]] && r=1; [[ "$a" == *f* ]] && f=1;; esac; done\n' +
      'if [ $r = 1 ] && [ $f = 1 ]; then : > "$PWD/RAN"; fi\n',
  );
  chmodSync(join(bin, "rm"), 0o755);
}

export interface StandIns {
  dirs: TempDirs;
  /** A folder to put first on PATH, holding the stand-in rm. */
  bin: string;
}

/** Registers beforeAll/afterAll: temp dirs for the whole file, with a `bin/` holding the stand-in rm. */
export function useStandIns(): StandIns {
  const box = {} as StandIns;
  beforeAll(() => {
    box.dirs = makeTempDirs();
    box.bin = join(box.dirs.root, "bin");
    mkdirSync(box.bin);
    writeStandInRm(box.bin);
  });
  afterAll(() => box.dirs.cleanup());
  return box;
}
