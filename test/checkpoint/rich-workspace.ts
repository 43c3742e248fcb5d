// A workspace holding every case a snapshot must keep or leave out, for the first-snapshot tests:
// ignore rules (a negation, a nested .gitignore, an ignored folder), `.gitattributes` that
// convert (line endings; `ident`, one of them ignored), an executable, a link, a FIFO, a sparse
// file over 10 MB, an empty folder, a nested repository, UTF-8 paths, and `files` small files.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export function richWorkspace(root: string, files: number): void {
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (let d = 0; d < 12; d++)
    for (let f = 0; f < Math.ceil(files / 12) + 10; f++)
      write(`pkg${d}/src/f${f}.ts`, `export const v = ${d * 1000 + f};\n`.repeat(f % 5));
  write(".gitignore", "*.log\n!keep.log\nignored/\nhid/.gitattributes\n");
  write("keep.log", "kept by a negation\n");
  write("drop.log", "ignored\n");
  write("ignored/a.txt", "ignored folder\n");
  write("pkg1/.gitignore", "secret.txt\n");
  write("pkg1/secret.txt", "nested ignore\n");
  write("conv/.gitattributes", "*.txt text eol=lf\n");
  write("conv/crlf.txt", "one\r\ntwo\r\n");
  write("conv/lf.txt", "one\ntwo\n");
  // `ident` collapses `$Id: ...$` on the way in; an ignored `.gitattributes` still applies.
  write("idn/.gitattributes", "*.c ident\n");
  write("idn/a.c", "/* $Id: 0123456789abcdef $ */\n");
  write("hid/.gitattributes", "*.c ident\n");
  write("hid/deep/b.c", "/* $Id: fedcba9876543210 $ */\n");
  write("run.sh", "#!/bin/sh\necho hi\n");
  chmodSync(join(root, "run.sh"), 0o755);
  symlinkSync("pkg0/src/f1.ts", join(root, "link.ts"));
  execFileSync("mkfifo", [join(root, "pipe")]);
  write("big.bin", "");
  truncateSync(join(root, "big.bin"), 11 * 1024 * 1024);
  mkdirSync(join(root, "empty/deep"), { recursive: true });
  write("vendor/lib/index.js", "module.exports = 1;\n");
  write("vendor/lib/sub/more.js", "module.exports = 2;\n");
  execFileSync("git", ["init", "-q"], { cwd: join(root, "vendor/lib") });
  write("名前/ファイル.txt", "utf-8 path\n");
  // Orders that differ between UTF-16 and UTF-8 bytes, and names around `/` in byte order.
  for (const name of ["a-b", "a.b", "a/b", "a0", "😀.txt", "\uE000.txt", "ÿ.txt", "Z.txt"])
    write(`order/${name}`, `${name}\n`);
}
