// Preloaded into the tern child (`node --require bench/hooks/usage.cjs dist/tern.js …`) by the
// benchmarks only; tern itself has no benchmark code. At exit it writes the child's own CPU time
// and peak RSS (process.resourceUsage) to the file named by TERN_BENCH_USAGE_FILE, because Node
// gives a parent no rusage of its children. It reads nothing else and prints nothing.
const file = process.env.TERN_BENCH_USAGE_FILE;
if (file) {
  process.on("exit", () => {
    const u = process.resourceUsage();
    require("node:fs").writeFileSync(
      file,
      JSON.stringify({ userUs: u.userCPUTime, systemUs: u.systemCPUTime, maxRssKb: u.maxRSS }),
    );
  });
}
