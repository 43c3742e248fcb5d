// Measuring helpers shared by the benchmarks: spawning the built CLI with a clean environment,
// wall time, the child's CPU (via bench/hooks/usage.cjs), /proc sampling, and statistics.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv } from "../../test/support/cli.js";
import { FakeProvider, type RecordedRequest } from "../../test/support/fake-provider.js";
import { makeTempDirs, type TempDirs } from "../../test/support/tern-home.js";

export interface Paths {
  root: string;
  bin: string;
  usageHook: string;
}

export function paths(root: string, dist = join(root, "dist")): Paths {
  return {
    root,
    bin: join(dist, "tern.js"),
    usageHook: join(root, "bench/hooks/usage.cjs"),
  };
}

export interface ChildUsage {
  /** user + system CPU of the child, in ms. */
  cpuMs: number;
  userMs: number;
  systemMs: number;
  maxRssBytes: number;
  /** CPU of the children the child waited for (Linux), in ms. */
  childrenCpuMs?: number;
}

export interface SpawnResult {
  code: number | null;
  wallMs: number;
  stdout: string;
  stderr: string;
  usage?: ChildUsage;
}

export interface SpawnOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Preload the usage hook and return the child's CPU time and peak RSS. */
  measureUsage?: boolean;
  /** Called with the child pid as soon as it is spawned. */
  onSpawn?: (pid: number) => void;
  timeoutMs?: number;
}

let profileDir: string | undefined;

/** `--profile <dir>`: every tern child also writes a V8 CPU profile there (`node --cpu-prof`). */
export function setProfileDir(dir: string | undefined): void {
  profileDir = dir;
}

/** The node flags that make a tern child write its CPU profile (none without `--profile`). */
export function profileFlags(): string[] {
  return profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
}

/** Spawns `node <args>` and resolves at exit; wall time is spawn → exit as the parent sees it. */
export function spawnNode(p: Paths, args: string[], opts: SpawnOptions): Promise<SpawnResult> {
  const env = { ...(opts.env ?? process.env) };
  let usageFile: string | undefined;
  let nodeArgs = args;
  if (opts.measureUsage) {
    usageFile = join(opts.cwd, `.usage-${process.pid}-${Date.now()}.json`);
    env.TERN_BENCH_USAGE_FILE = usageFile;
    nodeArgs = ["--require", p.usageHook, ...args];
  }
  if (profileDir && args[0] === p.bin) nodeArgs = ["--cpu-prof", "--cpu-prof-dir", profileDir, ...nodeArgs];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, nodeArgs, {
      cwd: opts.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (child.pid !== undefined) opts.onSpawn?.(child.pid);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 120_000);
    child.on("error", reject);
    // 'exit' rather than 'close': the moment the process ends, not when its pipes drain.
    child.on("exit", (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      clearTimeout(timer);
      child.on("close", () => {
        let usage: ChildUsage | undefined;
        if (usageFile && existsSync(usageFile)) {
          const u = JSON.parse(readFileSync(usageFile, "utf8"));
          usage = {
            cpuMs: (u.userUs + u.systemUs) / 1000,
            userMs: u.userUs / 1000,
            systemMs: u.systemUs / 1000,
            maxRssBytes: u.maxRssKb * 1024,
            childrenCpuMs: u.childrenUs === undefined ? undefined : u.childrenUs / 1000,
          };
          rmSync(usageFile, { force: true });
        }
        resolve({ code, wallMs, stdout, stderr, usage });
      });
    });
  });
}

/** A kB field of /proc/<pid>/status (VmRSS, VmHWM) in bytes; undefined off Linux. */
export function procStatusBytes(pid: number, field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const m = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Calls `hook(n, request)` synchronously when request #n (1-based) has been read by the fake
 * provider and before its response is written, so the tern child is parked waiting for it.
 */
export function onRequest(provider: FakeProvider, hook: (n: number, req: RecordedRequest) => void): void {
  const requests = provider.requests;
  const push = requests.push.bind(requests);
  requests.push = (...items: RecordedRequest[]) => {
    const n = push(...items);
    for (let i = 0; i < items.length; i++) hook(n - items.length + i + 1, items[i]);
    return n;
  };
}

/**
 * Keeps only the newest request's body: a long run resends its growing history every round, and
 * keeping every body would cost the bench process O(rounds²) memory. The first is kept too.
 */
export function keepLatestBodies(provider: FakeProvider): void {
  const requests = provider.requests;
  onRequest(provider, (n) => {
    const prev = requests[n - 2];
    if (n > 2 && prev) requests[n - 2] = { ...prev, body: null, rawBody: "" };
  });
}

export interface Scene {
  dirs: TempDirs;
  provider: FakeProvider;
  env: NodeJS.ProcessEnv;
  /** `--model … --base-url …` for the fake provider. */
  modelArgs: string[];
  close(): Promise<void>;
}

/** A temp TERN_HOME + workspace and a fresh fake provider; config makes retries short. */
export async function scene(config: Record<string, unknown> = {}): Promise<Scene> {
  const dirs = makeTempDirs("tern-bench-");
  mkdirSync(dirs.home, { recursive: true });
  writeFileSync(
    join(dirs.home, "config.json"),
    JSON.stringify({ retry: { baseDelaySeconds: 0.01 }, ...config }, null, 2),
  );
  const provider = await FakeProvider.start();
  keepLatestBodies(provider);
  return {
    dirs,
    provider,
    env: cliEnv(dirs.home, { OPENAI_API_KEY: "bench-key" }),
    modelArgs: ["--model", "openai/bench-1", "--base-url", provider.baseUrl],
    close: async () => {
      await provider.close();
      dirs.cleanup();
    },
  };
}

export interface Stats {
  samples: number[];
  median: number;
  min: number;
  max: number;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { samples, median, min: sorted[0], max: sorted[sorted.length - 1] };
}

/** Fails loudly: a benchmark whose run went wrong must not report a number. */
export function expectExit(result: SpawnResult, what: string, code = 0): void {
  if (result.code !== code) {
    throw new Error(
      `${what}: exit ${result.code} (expected ${code})\nstderr: ${result.stderr.slice(0, 2000)}\nstdout: ${result.stdout.slice(-2000)}`,
    );
  }
}

export interface Plan {
  warmup: number;
  runs: number;
  /** Runs of the heavy benchmarks (resume, long session). */
  heavyRuns: number;
}

export const MB = 1024 * 1024;

/** Runs `fn` warmup + runs times and keeps the measured runs. */
export async function repeat<T>(plan: { warmup: number; runs: number }, fn: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < plan.warmup + plan.runs; i++) {
    const value = await fn();
    if (i >= plan.warmup) out.push(value);
  }
  return out;
}
