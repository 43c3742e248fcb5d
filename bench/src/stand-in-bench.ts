// The hand-written stand-ins kept for start-up, each beside what it stands in for: a fresh
// process does the one job a start needs of it, and the row says what that costs over a bare
// child (peak RSS, CPU), so each stand-in's reason to stay is a measured figure, not a memory.
import { join } from "node:path";
import { expectExit, MB, type Paths, type Plan, repeat, spawnNode, stats } from "./harness.js";
import type { Row } from "./rows.js";

const STAND_INS: { name: string; library: string; why: string }[] = [
  {
    name: "timestamp",
    library: "Date#toISOString",
    why: "Node 20's toISOString asks ICU for the local time zone: its zone tables map into memory",
  },
  {
    name: "sha256",
    library: "node:crypto",
    why: "the workspace key is one short hash; node:crypto loads OpenSSL for it",
  },
  {
    name: "json-position",
    library: "jsonc-parser",
    why: "Node 20's JSON.parse errors carry no line or column; a broken config file needs one",
  },
];

export async function standInBench(p: Paths, plan: Plan): Promise<Row[]> {
  const child = join(p.root, "node_modules/.cache/tern-bench/stand-in-child.cjs");
  const run = async (name: string, variant: string) => {
    const r = await spawnNode(p, [child, name, variant], { cwd: p.root, measureUsage: true });
    expectExit(r, `stand-in ${name} ${variant}`);
    if (!r.usage) throw new Error("the usage hook reported nothing");
    return { out: r.stdout.trim(), rss: r.usage.maxRssBytes / MB, cpu: r.usage.cpuMs };
  };
  const rows: Row[] = [];
  for (const s of STAND_INS) {
    const runs = await repeat(plan, async () => {
      const none = await run(s.name, "none");
      const own = await run(s.name, "own");
      const library = await run(s.name, "library");
      if (own.out !== library.out)
        throw new Error(
          `stand-in ${s.name}: tern's answer ${own.out} differs from ${s.library}'s ${library.out}`,
        );
      return {
        own: own.rss - none.rss,
        library: library.rss - none.rss,
        ownCpu: own.cpu - none.cpu,
        libraryCpu: library.cpu - none.cpu,
      };
    });
    const median = (xs: number[]) => stats(xs).median;
    const libraryMB = median(runs.map((x) => x.library));
    rows.push({
      name: `stand-in ${s.name}`,
      metric: `peak RSS over a bare node, vs ${s.library}`,
      unit: "MB",
      stats: stats(runs.map((x) => x.own)),
      // Judged as "no more than the library": the row fails the day the stand-in stops paying.
      target: {
        kind: "max",
        value: Math.max(libraryMB, 0.05),
        text: `<= ${libraryMB.toFixed(2)} MB`,
      },
      notes: {
        why: s.why,
        libraryMB,
        ownCpuMs: median(runs.map((x) => x.ownCpu)),
        libraryCpuMs: median(runs.map((x) => x.libraryCpu)),
      },
    });
  }
  return rows;
}
