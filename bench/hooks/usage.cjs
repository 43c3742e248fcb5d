// Preloaded into the tern child (`node --require bench/hooks/usage.cjs dist/tern.js …`) by the
// benchmarks only; tern itself has no benchmark code. At exit it writes the child's own CPU time
// and peak RSS (process.resourceUsage) to the file named by TERN_BENCH_USAGE_FILE, because Node
// gives a parent no rusage of its children; on Linux also the CPU of its own children it has
// waited for (ripgrep, from /proc/self/stat). It reads nothing else and prints nothing.
const file = process.env.TERN_BENCH_USAGE_FILE;
if (file) {
  process.on("exit", () => {
    const u = process.resourceUsage();
    const fs = require("node:fs");
    let childrenUs;
    try {
      // Fields 16 and 17 (cutime, cstime) after the ")" that ends the command name, in ticks (1/100 s).
      const f = fs.readFileSync("/proc/self/stat", "utf8").split(")").pop().trim().split(" ");
      childrenUs = (Number(f[13]) + Number(f[14])) * 10_000;
    } catch {
      // not Linux
    }
    fs.writeFileSync(
      file,
      JSON.stringify({ userUs: u.userCPUTime, systemUs: u.systemCPUTime, maxRssKb: u.maxRSS, childrenUs }),
    );
  });
}
