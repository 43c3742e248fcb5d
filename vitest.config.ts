import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

const TESTS = ["test/**/*.test.ts", "test/**/*.test.tsx"];
// The end-to-end and UI tests drive the built CLI as child processes; every other folder tests
// modules in-process.
const PROCESS_TESTS = ["test/e2e/**/*.test.ts", "test/tui/**/*.test.ts", "test/tui/**/*.test.tsx"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default is one worker less than the cores: a single worker on CI's 2 cores, which
    // spends most of its time waiting on the tern, pty and server processes it started, so one
    // core sat idle. Two workers keep both busy (the same CPU time, about a third less wall time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ["./test/support/legality-setup.ts", "./test/support/path-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      {
        // A fresh process per file costs about 0.35 s of CPU, more than many of these files' tests
        // take; they restore what they change (env, cwd, timers), so one process runs many files.
        extends: true,
        test: {
          name: "modules",
          include: TESTS,
          exclude: [...configDefaults.exclude, ...PROCESS_TESTS],
          isolate: false,
        },
      },
      {
        // Each file in a process of its own, as they were written for.
        extends: true,
        test: {
          name: "processes",
          include: PROCESS_TESTS,
        },
      },
    ],
  },
});
