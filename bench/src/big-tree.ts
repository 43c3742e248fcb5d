// A monorepo-sized workspace for the big-tree benchmarks (R-BIG): deterministic (a seeded PRNG),
// `files` tracked-looking text files (default 100,000, ~4 KB each: ~400 MB) in packages with
// their own `.gitignore` (a negation inside), a tenth of them `.json`, plus an ignored
// `node_modules/` (files ÷ 5) and `build/` (files ÷ 20) and an empty `.git` (so plain `rg`
// honours the `.gitignore` files as tern does). Kept in node_modules/.cache between runs: a
// stamp beside the folder names the generator version and size; a matching tree is reused.
// The content is made in one fixed order (one PRNG stream) while the writes run in parallel:
// creating 125,000 files is kernel time (open/write/close of a new inode), so keeping several in
// flight on libuv's threads uses both cores; the folders are made first, so every write is
// one open, one write, one close.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFile, writeFileSync } from "node:fs";
import { join } from "node:path";

const VERSION = 1;
/** A literal in about one file in 500, and the words of the alternation row. */
export const NEEDLE = "needleTernBench";
export const ALTERNATION = "parseConfigValue|renderWidgetTree";

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  "value index result config options handler request response buffer stream token record state item list map entry node child parent render widget tree parse load save update create delete query cache limit offset count total error reason status".split(
    " ",
  );

function linePool(rand: () => number): string[] {
  const pick = () => WORDS[Math.floor(rand() * WORDS.length)];
  const pool: string[] = [];
  for (let i = 0; i < 4000; i++) {
    const kind = i % 5;
    const name = `${pick()}${pick()[0].toUpperCase()}${pick().slice(1)}${i}`;
    if (kind === 0) pool.push(`export function ${name}(${pick()}: number, ${pick()}: string) {`);
    else if (kind === 1) pool.push(`  const ${name} = ${pick()}.${pick()}(${Math.floor(rand() * 1000)});`);
    else if (kind === 2) pool.push(`  // ${pick()} the ${pick()} before the ${pick()} is ${pick()}d`);
    else if (kind === 3) pool.push(`  if (${name} > ${Math.floor(rand() * 100)}) return ${pick()};`);
    else pool.push("}");
  }
  return pool;
}

export interface BigTree {
  dir: string;
  files: number;
  jsonFiles: number;
  bytes: number;
}

/** Writes files with up to `inFlight` at once; `put` waits only when that many are pending. */
function parallelWriter(inFlight: number) {
  let pending = 0;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const settle = (err: Error | null) => {
    pending--;
    if (err) failure ??= err;
    const w = wake;
    wake = undefined;
    w?.();
  };
  const room = (limit: number) =>
    new Promise<void>((resolve) => {
      const check = () => (pending <= limit ? resolve() : (wake = check));
      check();
    });
  return {
    async put(path: string, content: string) {
      if (failure) throw failure;
      pending++;
      writeFile(path, content, settle);
      if (pending >= inFlight) await room(inFlight / 2);
    },
    async done() {
      await room(0);
      if (failure) throw failure;
    },
  };
}

export async function generateBigTree(dir: string, files = 100_000): Promise<BigTree> {
  const stampFile = `${dir}.stamp`;
  const stamp = `${VERSION} ${files}`;
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8").startsWith(`${stamp}\n`)) {
    const [, , json, bytes] = readFileSync(stampFile, "utf8").trim().split(/\s+/);
    return { dir, files, jsonFiles: Number(json), bytes: Number(bytes) };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const rand = prng(42);
  const pool = linePool(rand);
  const text = (lines: number, needle: boolean) => {
    const out: string[] = [];
    for (let i = 0; i < lines; i++) out.push(pool[Math.floor(rand() * pool.length)]);
    if (needle) out.splice(Math.floor(rand() * lines), 0, `  const hit = "${NEEDLE}";`);
    if (rand() < 0.02) out.push("  parseConfigValue(state);");
    if (rand() < 0.02) out.push("  renderWidgetTree(node);");
    return `${out.join("\n")}\n`;
  };
  let bytes = 0;
  let jsonFiles = 0;
  const writer = parallelWriter(64);
  const put = (rel: string, content: string) => {
    bytes += content.length;
    return writer.put(join(dir, rel), content);
  };
  const perPackage = 500;
  const packages = Math.max(1, Math.ceil(files / perPackage));
  let made = 0;
  writeFileSync(join(dir, ".gitignore"), "node_modules/\n/build/\n*.tmp\n");
  for (let p = 0; p < packages && made < files; p++) {
    const pkg = join("packages", `pkg${String(p).padStart(4, "0")}`);
    for (let m = 0; m < perPackage / 50; m++)
      mkdirSync(join(dir, pkg, "src", `mod${m}`), { recursive: true });
    mkdirSync(join(dir, pkg, "data"), { recursive: true });
    writeFileSync(join(dir, pkg, ".gitignore"), "generated/\n!keep.tmp\n");
    for (let f = 0; f < perPackage && made < files; f++, made++) {
      if (f % 10 === 0) {
        await put(
          join(pkg, "data", `d${f}.json`),
          `${JSON.stringify({ id: made, name: `${pkg}-${f}`, tags: WORDS.slice(f % 20, (f % 20) + 8) }, null, 2)}\n`,
        );
        jsonFiles++;
      } else
        await put(
          join(pkg, "src", `mod${f % 10}`, `file${f}.ts`),
          text(40 + Math.floor(rand() * 120), rand() < 0.002),
        );
    }
    writeFileSync(join(dir, pkg, "src", "keep.tmp"), "kept by a negation\n");
    writeFileSync(join(dir, pkg, "src", "scratch.tmp"), `${NEEDLE} ignored\n`);
  }
  for (let i = 0; i < files / 5; i++) {
    const folder = join(dir, "node_modules", `dep${i % 400}`, "lib");
    if (i < 400) mkdirSync(folder, { recursive: true });
    await writer.put(join(folder, `m${i}.js`), `module.exports = "${NEEDLE}";\n`);
  }
  mkdirSync(join(dir, "build"), { recursive: true });
  for (let i = 0; i < files / 20; i++) await writer.put(join(dir, "build", `out${i}.js`), `// ${NEEDLE}\n`);
  await writer.done();
  execFileSync("git", ["init", "-q", dir]);
  writeFileSync(stampFile, `${stamp}\n${jsonFiles} ${bytes}\n`);
  return { dir, files, jsonFiles, bytes };
}
