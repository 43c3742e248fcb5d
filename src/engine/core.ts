// The state of one session's engine task: its model, tools and settings, and the parts that do
// each job — `records` commits (`committer.ts`), `todos` keeps the todo list (`todo-state.ts`),
// `requests` builds model requests (`request-builder.ts`).
import type { Config, ResolvedModel, ToolSetConfig } from "../config/types.js";
import { scrubbedEnv } from "../config/secrets.js";
import type { NormalizedRequest, ProviderAdapter } from "../provider/types.js";
import { createAdapter } from "../provider/index.js";
import type { RecordFold } from "../record/fold.js";
import type { ContextSource, NewRecord, RecordLine } from "../record/types.js";
import type { RecordWriter } from "../record/writer.js";
import type { JobTable } from "../jobs/job-table.js";
import type { ApprovalPolicy } from "../tools/policy/approval.js";
import type { ToolSets } from "../tools/mcp/mcp.js";
import type { ToolExecutor } from "../tools/executor.js";
import type { ReadTracker, ShellSandbox, ToolResult } from "../tools/types.js";
import type { SessionHooks } from "./door/requests.js";
import type { Checkpointer } from "./undo/checkpoints.js";
import type { InstructionNotes } from "./instruction-notes.js";
import { RecordCommitter } from "./committer.js";
import type { EngineEvent } from "./door/events.js";
import { RequestBuilder } from "./turn/request-builder.js";
import { TodoState } from "./todo-state.js";
import { FollowUpQueue } from "./follow-ups.js";
import { loadSessionJobs } from "./jobs/index.js";
import type { ToolSpec } from "../vocab/messages.js";
import type { Usage } from "../vocab/usage.js";
import { UnbilledFile } from "../record/unbilled.js";
import type { HookOutcome } from "../hooks/protocol.js";
import type { TaskCall } from "./subagents/task-runner.js";
import type { LanguageServers } from "./language-servers.js";

/** What a front end answers for the engine: the door's requests to a person (requests.ts). */
export type { PlanReview, SessionHooks } from "./door/requests.js";

/** The user's hooks at the session's points (hook-points/); absent when none are configured. */
export interface HookPoints {
  sessionStart(source: "startup" | "resume" | "clear" | "compact"): void;
  takeStartNotes(): Promise<string[]>;
  promptSubmitted(prompt: string, signal?: AbortSignal): Promise<{ blocked?: string; notes: string[] }>;
  beforeTool(id: string, name: string, args: unknown, signal: AbortSignal): Promise<HookOutcome | undefined>;
  afterTool(
    id: string,
    name: string,
    args: unknown,
    result: ToolResult,
    signal: AbortSignal,
  ): Promise<string | undefined>;
  stopRequested(active: boolean): Promise<string | undefined>;
  preCompact(trigger: "manual" | "auto"): Promise<unknown>;
  /** Notification: tern waits for the person (Claude Code's `notification_type`, plus tern's `limit_prompt`). */
  notify(message: string, type: "permission_prompt" | "idle_prompt" | "limit_prompt"): void;
  sessionEnd(reason: string): Promise<void>;
  /** The session went idle: Notification `idle_prompt` if it still is, after a turn, in a while. */
  idle(): void;
}

export interface SessionCoreInit {
  id: string;
  dir: string;
  cwd: string;
  settings: Config;
  model: ResolvedModel;
  adapter: ProviderAdapter;
  fold: RecordFold;
  writer: RecordWriter;
  executor: ToolExecutor;
  policy: ApprovalPolicy;
  readTracker: ReadTracker;
  system: string;
  tools: ToolSpec[];
  hooks: SessionHooks;
  publish(event: EngineEvent): void;
}

export class SessionCore {
  readonly id: string;
  readonly dir: string;
  readonly cwd: string;
  readonly settings: Config;
  model: ResolvedModel;
  adapter: ProviderAdapter;
  readonly fold: RecordFold;
  readonly executor: ToolExecutor;
  readonly policy: ApprovalPolicy;
  readonly readTracker: ReadTracker;
  readonly hooks: SessionHooks;
  /** The OS sandbox `bash` runs in; absent when `sandbox.mode` is off. */
  sandbox: ShellSandbox | undefined;
  /** The plan `exit_plan` made this turn's answer (nobody to review it); the loop takes it. */
  deliveredPlan: string | undefined;
  /** The read-only sandbox of plan mode (R-PLAN-1), made when a planning batch first runs. */
  planSandbox: (() => ShellSandbox | undefined) | undefined;
  readonly publish: (event: EngineEvent) => void;
  system: string;
  tools: ToolSpec[];
  lastRoundUsage: Usage | null = null;
  /** The turn whose `yyy` answer still holds: a `/retry` of that turn keeps it (R-BUD-3). */
  autoContinueTurn: number | undefined;
  /** Called after every committed line the ledger bills: a turn_end, a `/compact` summary (R-REC-8). */
  onBilled: ((line: RecordLine) => void) | undefined;
  /** MCP servers of this session (absent when none is configured). */
  toolSets: ToolSets | undefined;
  /** The MCP servers once their module loaded (absent when none is configured). */
  toolSetsLoading: Promise<ToolSets> | undefined;
  /** Starts more MCP servers now (`/mcp approve`); the names that were new. Set by tool-sync.ts. */
  addToolSets: ((configs: ToolSetConfig[]) => Promise<string[]>) | undefined;
  /** Waits for MCP servers still starting and brings the tool list up to date (tool-sync.ts). */
  syncTools: ((signal: AbortSignal) => Promise<void>) | undefined;
  /** Instruction files of folders below the workspace, joining when a tool first touches them (R-WF-1). */
  instructionNotes: InstructionNotes | undefined;
  /** The instruction files, skills and command sources the context line names (R-WF-1). */
  contextFiles: ContextSource[] = [];
  /** File snapshots for undo; absent when switched off. */
  checkpoints: Checkpointer | undefined;
  /** The user's hooks (R-HOOK); absent when none are configured. */
  hookPoints: HookPoints | undefined;
  /** Runs `task` calls as child sessions (R-AGENT-1, subagents/task-runner.ts). */
  tasks: { run(call: TaskCall): Promise<ToolResult>; readonly running: number } | undefined;
  readonly records: RecordCommitter;
  /** Failed attempts a crash would leave unbilled (record/unbilled.ts), kept open for the session. */
  readonly unbilled: UnbilledFile;
  readonly todos = new TodoState();
  readonly requests: RequestBuilder;
  /**
   * Background jobs (R-JOB), once the first tool batch made the table (`jobTable`): they end
   * with the session (`Session.close`, `/clear`). Undefined = no job was ever possible.
   */
  jobs: JobTable | undefined;
  /** The session's language servers (R-LSP); absent when `lsp` is false. Ended with the session. */
  languageServers: LanguageServers | undefined;
  /** Follow-ups sent while a turn runs (R-TURN-7); the turn loop takes them after tool batches. */
  readonly followUps: FollowUpQueue;

  constructor(init: SessionCoreInit) {
    this.id = init.id;
    this.dir = init.dir;
    this.unbilled = new UnbilledFile(init.dir);
    this.cwd = init.cwd;
    this.settings = init.settings;
    this.model = init.model;
    this.adapter = init.adapter;
    this.fold = init.fold;
    this.executor = init.executor;
    this.policy = init.policy;
    this.readTracker = init.readTracker;
    this.system = init.system;
    this.tools = init.tools;
    this.hooks = init.hooks;
    this.publish = init.publish;
    this.requests = new RequestBuilder(init.dir, init.id);
    this.followUps = new FollowUpQueue(init.publish);
    this.records = new RecordCommitter({
      fold: init.fold,
      writer: init.writer,
      publish: init.publish,
      model: () => this.model,
      storeContent: (content) => this.requests.storeContent(content),
      onBilled: (line) => this.onBilled?.(line),
    });
  }

  /** The environment tool processes get: provider keys and secret-looking variables removed (R-CFG-3). */
  get toolEnv(): NodeJS.ProcessEnv {
    this._toolEnv ??= scrubbedEnv(process.env, this.settings);
    return this._toolEnv;
  }
  private _toolEnv: NodeJS.ProcessEnv | undefined;

  /** The session's job table, made (and jobs/ loaded) on first use. */
  async jobTable(): Promise<JobTable> {
    if (this.jobs) return this.jobs;
    const { sessionJobs } = await loadSessionJobs();
    this.jobs ??= sessionJobs({
      dir: this.dir,
      archive: this.fold.archive,
      commit: (record) => this.commit(record),
      publish: this.publish,
      // A settings object made without `jobs` (a library caller's) gets the table's defaults.
      caps: this.settings.jobs && {
        jobBytes: this.settings.jobs.logMaxBytes,
        sessionBytes: this.settings.jobs.sessionLogMaxBytes,
      },
    });
    return this.jobs;
  }

  /** The model for the following turns; the `config` record makes a resume keep it. */
  switchModel(model: ResolvedModel): void {
    this.model = model;
    this.adapter = createAdapter(model.endpoint);
    if (this.fold.model !== model.id) this.commit({ type: "config", model: model.id });
  }

  /** Append one record the fold fully accepts; the fold follows every line. */
  commit(record: NewRecord): RecordLine {
    return this.records.commit(record);
  }

  /** The request for the next round, from a snapshot of the model context (R-TURN-1). */
  buildRequest(): NormalizedRequest {
    return this.requests.build(this.model, this.system, this.tools, this.fold.messages);
  }
}
