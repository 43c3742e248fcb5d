// One async task per session (SPEC §4): commands go in through a queue and run one at a time,
// events come out through the bus, cancellation is an AbortSignal per running command.
import type { ContentPart } from "../provider/types.js";
import type { EventBus, Listener } from "./bus.js";
import type { SessionCore } from "./core.js";
import type { TurnOutcome } from "./stop.js";
import { runTurn } from "./turn.js";

export type SessionCommand =
  | { type: "prompt"; content: ContentPart[] }
  | { type: "retry" }
  | { type: "clear" }
  | { type: "rewind"; turn: number };

export class Session {
  private tail: Promise<unknown> = Promise.resolve();
  private running: AbortController | undefined;
  private closed = false;

  constructor(
    readonly core: SessionCore,
    private readonly bus: EventBus,
    private readonly onClose: () => Promise<void>,
  ) {}

  get id(): string {
    return this.core.id;
  }

  subscribe(listener: Listener): () => void {
    return this.bus.subscribe(listener);
  }

  /** Queue a command; it runs after every command sent before it. */
  send(command: { type: "prompt"; content: ContentPart[] } | { type: "retry" }): Promise<TurnOutcome>;
  send(command: SessionCommand): Promise<unknown>;
  send(command: SessionCommand): Promise<unknown> {
    const result = this.tail.then(() => this.execute(command));
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Interrupt the running command at once (Ctrl+C, SIGINT). Queued commands still run. */
  cancel(): void {
    this.running?.abort();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancel();
    await this.tail;
    await this.onClose();
  }

  private async execute(command: SessionCommand): Promise<unknown> {
    if (this.closed) throw new Error("session is closed");
    const controller = new AbortController();
    this.running = controller;
    try {
      switch (command.type) {
        case "prompt":
          return await runTurn(this.core, { content: command.content }, controller.signal);
        case "retry":
          return await runTurn(this.core, { content: [], retry: true }, controller.signal);
        case "clear":
          this.core.commit({ type: "cleared" });
          return undefined;
        case "rewind":
          this.core.commit({ type: "rewound", toTurn: command.turn });
          return undefined;
      }
    } finally {
      this.running = undefined;
    }
  }
}
