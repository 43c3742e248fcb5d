// Snapshots of the workspace files during turns (R-CKPT-1): one before each turn and one after each
// tool batch that ran a writing tool or `bash`. A snapshot runs beside the model's stream and is
// awaited only before the next tool batch and before turn_end, so it rarely adds to a round's time.
import { join } from "node:path";
import { CheckpointError } from "../../checkpoint/errors.js";
import { loadShadowRepo } from "../../checkpoint/index.js";
import type { PreImages, ShadowRepo } from "../../checkpoint/shadow-repo.js";
import type { CheckpointsConfig } from "../../config/types.js";
import { sessionHeld } from "../../record/lock.js";
import { workspaceKey, workspaceSessionsDir } from "../../record/store.js";
import type { NewRecord, RecordLine } from "../../record/types.js";
import type { RunningCall } from "../../tools/batch-types.js";
import type { ToolResult } from "../../tools/types.js";
import type { ToolCall } from "../../vocab/messages.js";

/**
 * A workspace with more files than this takes its first snapshot in the background (R-CKPT-4):
 * it starts with the first tool batch and the batches do not wait for it.
 */
const BACKGROUND_FIRST_SNAPSHOT_FILES = 20_000;

/** Tools that never change files: a batch of only these needs no snapshot after it. */
const READ_ONLY_TOOLS = new Set(["read_file", "grep", "glob", "lsp", "todo_write", "recall", "web_fetch"]);

/** Tools that write only the files their `paths()` name: their pre-images make a first snapshot exact. */
const KNOWN_PATH_WRITERS = new Set(["edit_file", "write_file", "edit_lineno", "apply_patch"]);

/** The workspace's shadow repository; git's code (child_process) loads here, at the first use. */
export async function shadowRepoFor(
  home: string,
  cwd: string,
  sessionId: string,
  watchChanges = false,
): Promise<ShadowRepo> {
  const { ShadowRepo } = await loadShadowRepo();
  return new ShadowRepo({
    gitDir: join(home, "checkpoints", workspaceKey(cwd)),
    workTree: cwd,
    sessionId,
    // A workspace may hold TERN_HOME (tern started in the home folder): its records are not the user's files.
    leaveOut: [home],
    sessionHeld: (id) => sessionHeld(join(workspaceSessionsDir(home, cwd), id)),
    // A live session's later snapshots of a big workspace are told what changed (R-BIG-1).
    watchChanges,
  });
}

/** The newest snapshot the record names: a checkpoint, or the state an undo or redo restored. */
export function newestTree(archive: readonly RecordLine[]): string | undefined {
  for (let i = archive.length - 1; i >= 0; i--) {
    const line = archive[i];
    if (line.type === "checkpoint") return line.tree;
    if (line.type === "undo" || line.type === "redo") return line.restored;
  }
  return undefined;
}

export interface CheckpointerInit {
  home: string;
  cwd: string;
  sessionId: string;
  settings: CheckpointsConfig;
  /** The record so far: where the session's newest snapshot is named. */
  archive: readonly RecordLine[];
  commit(record: NewRecord): void;
  notice(text: string): void;
  /** Above this many files the first snapshot goes on in the background (default 20,000). */
  backgroundFirstFiles?: number;
}

/**
 * A session's snapshots. Nothing runs until the first turn starts, so opening a session costs no
 * git process; whether checkpoints are possible (git present, workspace under
 * `checkpoints.maxFiles`) is decided then and, when not, said in one notice.
 */
export class Checkpointer {
  private pending: Promise<void> = Promise.resolve();
  private lastTree: string | undefined;
  private repo: ShadowRepo | undefined;
  private off = false;
  /** The running turn, while its "before" snapshot is not taken yet. */
  private turnWithoutSnapshot: number | undefined;
  /** The workspace was counted (or is being counted) for a session's first snapshot. */
  private probed = false;
  /** Files the first snapshot holds, once counted (only counted when there is no snapshot yet). */
  private counted: Promise<number>;
  private setCount: (files: number) => void = () => undefined;
  /**
   * Tool batches let run beside the first snapshot (R-CKPT-4): whether one is running now, whether
   * it reached `beforeRun` (approval over, its calls starting), and whether a batch that wrote ran
   * without that hook before the snapshot had read every file: that makes it `duringTools` (undo
   * then says so). Calls with known paths hand their files' pre-images to it (`preImages`); calls
   * whose writes are unknown (bash, MCP, a file no pre-image keeps) wait for it in `beforeRun`.
   */
  private beside = { running: false, hooked: false, unknown: false };
  private preImages: PreImages | undefined;
  /** The first snapshot hashes every file (no earlier session's index to start from). */
  private firstIsFull = true;

  constructor(private readonly init: CheckpointerInit) {
    this.lastTree = newestTree(init.archive);
    this.counted = new Promise((resolve) => {
      this.setCount = resolve;
    });
  }

  /** Undefined when the user switched checkpoints off. */
  static forSession(init: CheckpointerInit): Checkpointer | undefined {
    return init.settings.enabled ? new Checkpointer(init) : undefined;
  }

  private async ready(): Promise<ShadowRepo | undefined> {
    if (this.repo || this.off) return this.repo;
    const { home, cwd, sessionId, settings } = this.init;
    const { hasGit } = await loadShadowRepo();
    if (!(await hasGit())) return this.turnOff("git was not found (install git to use tern undo)");
    const repo = await shadowRepoFor(home, cwd, sessionId, true);
    await repo.init();
    if (!this.lastTree) {
      // Seeded from the workspace's own git index: its entries are the count (no listing of every
      // file before the first snapshot; untracked files are not counted then).
      const seed = repo.workspaceSeed;
      const files = seed?.seeded ? seed.files : await repo.countFiles(settings.maxFiles);
      // An index copied from an earlier session makes the first snapshot incremental: no background.
      this.firstIsFull = !repo.seeded;
      this.setCount(files);
      if (files > settings.maxFiles)
        return this.turnOff(
          `the workspace has more than ${settings.maxFiles} files (checkpoints.maxFiles is ${settings.maxFiles})`,
        );
    }
    this.repo = repo;
    return repo;
  }

  private turnOff(why: string): undefined {
    this.off = true;
    this.setCount(0);
    this.init.notice(`checkpoints are off: ${why}`);
    return undefined;
  }

  /**
   * A turn starts. Its "before" snapshot is taken only when its first tool batch is about to run
   * (`beforeBatch`): until then the turn has only streamed, so the files are as they were, and a
   * turn that runs no tool takes no snapshot and starts no git (a one-round run spawns nothing).
   */
  beforeTurn(turn: number): void {
    this.turnWithoutSnapshot = turn;
  }

  /**
   * Before a tool batch: the turn's "before" snapshot if still owed, then wait for snapshots in
   * flight; but never for the first snapshot of a big workspace (R-CKPT-4), which goes on beside
   * the batch (the batches' own snapshots queue behind it). The first batch of a session without
   * any snapshot counts the workspace first (git's file listing, far quicker than a snapshot).
   */
  beforeBatch(calls?: readonly ToolCall[]): Promise<void> {
    if (calls && calls.length > 0 && calls.every((call) => READ_ONLY_TOOLS.has(call.name)))
      return this.readOnlyBatch();
    if (this.lastTree || this.off) return this.takeOwed();
    this.probe();
    return this.counted.then((files) => {
      const pending = this.takeOwed();
      const background = this.init.backgroundFirstFiles ?? BACKGROUND_FIRST_SNAPSHOT_FILES;
      if (!(files > background && !this.lastTree && this.firstIsFull)) return pending;
      this.beside = { ...this.beside, running: true, hooked: false };
      return undefined;
    });
  }

  /**
   * A batch of tools that never write needs no snapshot before it and waits for none: the files
   * are as they were, so the turn's "before" snapshot stays owed to its first writing batch (R-BIG-1:
   * grep and glob on a later turn cost what the tool costs). A first snapshot is started all the
   * same, beside the batch: it has the most to read, and a writing batch after it waits less.
   */
  private readOnlyBatch(): Promise<void> {
    if (!this.lastTree && !this.off) {
      this.probe();
      void this.counted.then(() => this.takeOwed());
    }
    return Promise.resolve();
  }

  private probe(): void {
    if (this.probed) return;
    this.probed = true;
    this.pending = this.pending.then(() =>
      this.ready().then(
        () => undefined,
        (err) => this.turnOff(err instanceof CheckpointError ? err.message : String(err)),
      ),
    );
  }

  private takeOwed(): Promise<void> {
    if (this.turnWithoutSnapshot !== undefined) {
      this.take(this.turnWithoutSnapshot, 0);
      this.turnWithoutSnapshot = undefined;
    }
    return this.pending;
  }

  /**
   * Right before a batch's calls run (after approval): beside a first snapshot still reading
   * files, each file a known-path tool will write has its pre-image kept for it (the first one
   * of a path wins); any other writing call waits for that snapshot. Never throws.
   */
  readonly beforeRun = async (calls: readonly RunningCall[]): Promise<void> => {
    if (!this.beside.running) return;
    this.beside.hooked = true;
    const writing = calls.filter((call) => !READ_ONLY_TOOLS.has(call.name));
    if (writing.length === 0) return;
    const { PreImages, readPreImage } = await loadShadowRepo();
    this.preImages ??= new PreImages();
    const kept: { path: string; image: Parameters<PreImages["add"]>[1] }[] = [];
    let unknown = false;
    for (const call of writing) {
      if (!(KNOWN_PATH_WRITERS.has(call.name) && call.kind === "edit")) unknown = true;
      else
        for (const path of call.paths) {
          const read = await readPreImage(this.init.cwd, path).catch(() => undefined);
          if (read === undefined) unknown = true;
          else if (read !== "outside") kept.push(read);
        }
    }
    // Once closed, the snapshot read every file before these calls write: nothing to keep.
    if (this.preImages.closed) return;
    for (const { path, image } of kept) this.preImages.add(path, image);
    // A call whose writes are unknown (bash, MCP, a file no pre-image keeps) waits for the first
    // snapshot, which has then read every file before it writes: undo of the turn stays exact
    // without --force (R-BIG-4). A `tern run` waits for that snapshot at the turn's end anyway.
    if (unknown) await this.pending;
  };

  /** Starts a snapshot after a tool batch, when a call that may write files ran. */
  afterBatch(turn: number, round: number, calls: readonly ToolCall[], results: readonly ToolResult[]): void {
    const wrote = calls.some(
      (call, i) =>
        !READ_ONLY_TOOLS.has(call.name) &&
        results[i] !== undefined &&
        results[i].outcome !== "denied" &&
        results[i].outcome !== "not_executed",
    );
    if (this.beside.running) {
      // A batch that ran without `beforeRun` kept no pre-images: its writes are unknown.
      const unhooked = wrote && !this.beside.hooked && !this.preImages?.closed;
      this.beside = { running: false, hooked: false, unknown: this.beside.unknown || unhooked };
    }
    if (wrote) this.take(turn, round);
  }

  /** The shadow repository, for undo, redo and diff in a live session. */
  async repository(): Promise<ShadowRepo> {
    const repo = await this.ready();
    if (!repo) throw new CheckpointError("checkpoints are off for this session");
    return repo;
  }

  /** After an undo or redo the files match that snapshot: the next one compares against it. */
  restoredTo(tree: string | undefined): void {
    this.lastTree = tree;
  }

  /**
   * The session is over: stop watching the workspace (a snapshot still queued runs without the
   * watch); resolves once the session index and ref hold the newest snapshot.
   */
  close(): Promise<void> {
    return this.repo?.close() ?? Promise.resolve();
  }

  /** Waits for the snapshot in flight (before turn_end, and before undo, redo or diff). */
  settle(): Promise<void> {
    return this.pending;
  }

  private take(turn: number, round: number): void {
    if (this.off) return;
    this.pending = this.pending.then(async () => {
      try {
        const repo = await this.ready();
        if (!repo) return;
        const first = this.lastTree === undefined;
        // The first snapshot closes the pre-images batches beside it keep (made here if none did yet).
        if (first) this.preImages ??= new (await loadShadowRepo()).PreImages();
        const label = `turn ${turn} round ${round}`;
        const tree = await repo.snapshot(this.lastTree, label, first ? this.preImages : undefined);
        this.lastTree = tree;
        const raced = first && this.beside.unknown;
        this.init.commit({ type: "checkpoint", turn, round, tree, ...(raced ? { duringTools: true } : {}) });
      } catch (err) {
        // Undo is a convenience: a failing snapshot must never fail the turn.
        this.turnOff(err instanceof CheckpointError ? err.message : String(err));
      }
    });
  }
}
