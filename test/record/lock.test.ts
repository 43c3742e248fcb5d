// R-REC-9: the session lock tells a live writer from a leftover, also when the pid was reused
// (a reboot, a restarted container where tern gets the same small pid again).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockSession } from "../../src/record/lock.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let sleeper: ChildProcess | undefined;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => {
  sleeper?.kill("SIGKILL");
  sleeper = undefined;
  dirs.cleanup();
});

const lockFile = () => join(dirs.workspace, "lock");
const startOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
};
const boot = () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();

function liveOther(): number {
  sleeper = spawn("sleep", ["60"], { stdio: "ignore" });
  return sleeper.pid!;
}

describe("session lock", () => {
  it("a second open in the same tern is refused; released, it opens again", () => {
    const lock = lockSession(dirs.workspace, "s1");
    expect(readFileSync(lockFile(), "utf8")).toMatch(new RegExp(`^${process.pid} start=\\d+ boot=\\S+\\n$`));
    expect(() => lockSession(dirs.workspace, "s1")).toThrow(/already open in this tern/);
    lock.release();
    lockSession(dirs.workspace, "s1").release();
  });

  it("a lock naming this very pid that this process does not hold is a leftover: taken over", () => {
    writeFileSync(lockFile(), `${process.pid}\n`);
    const lock = lockSession(dirs.workspace, "s1");
    expect(readFileSync(lockFile(), "utf8")).toMatch(new RegExp(`^${process.pid} `));
    lock.release();
  });

  it("a live process holding the lock is respected, old format included", () => {
    const pid = liveOther();
    writeFileSync(lockFile(), `${pid} start=${startOf(pid)} boot=${boot()}\n`);
    expect(() => lockSession(dirs.workspace, "s1")).toThrow(
      new RegExp(`in use by another tern \\(pid ${pid}\\)`),
    );
    writeFileSync(lockFile(), `${pid}\n`);
    expect(() => lockSession(dirs.workspace, "s1")).toThrow(/in use by another tern/);
  });

  it("a live pid that started at another time, or a lock from another boot, is stale", () => {
    const pid = liveOther();
    writeFileSync(lockFile(), `${pid} start=1 boot=${boot()}\n`);
    lockSession(dirs.workspace, "s1").release();
    writeFileSync(lockFile(), `${pid} start=${startOf(pid)} boot=00000000-0000-0000-0000-000000000000\n`);
    lockSession(dirs.workspace, "s1").release();
  });

  it("a zombie holder (a SIGKILLed tern not reaped yet) is dead: its lock is taken over", async () => {
    // `sleep 0.2` exits once its parent has exec'd into `sleep 60`, which never reaps it. (With
    // `sleep 0` a loaded machine let the shell reap it before the exec, and no zombie was left.)
    sleeper = spawn("sh", ["-c", "sleep 0.2 & echo $!; exec sleep 60"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    const [line] = (await once(sleeper.stdout!, "data")) as [Buffer];
    const zombie = Number(line.toString().trim());
    const state = () => readFileSync(`/proc/${zombie}/stat`, "utf8").split(") ")[1][0];
    for (let i = 0; i < 300 && state() !== "Z"; i++) await new Promise((r) => setTimeout(r, 10));
    expect(state()).toBe("Z");
    writeFileSync(lockFile(), `${zombie} start=${startOf(zombie)} boot=${boot()}\n`);
    const lock = lockSession(dirs.workspace, "s1");
    expect(readFileSync(lockFile(), "utf8")).toMatch(new RegExp(`^${process.pid} `));
    lock.release();
  });
});
