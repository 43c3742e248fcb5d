// The follow-up queue (R-TURN-7, R-UI-1): text a person sends while a turn runs. The engine owns
// it, so every front end queues the same way: the running turn takes the oldest after each
// completed tool batch, and what is still queued when the session goes idle starts the next turn.
// Every change is published as a `follow_up` event carrying the whole queue, which is all a
// front end needs to draw its panel; no front end keeps a queue of its own.
import type { ContentPart } from "../vocab/messages.js";
import type { FollowUpChange, EngineEvent } from "./door/events.js";
import type { TurnOutcome } from "./door/outcome.js";
import type { FollowUp, QueuedFollowUp } from "./door/commands.js";

interface Entry extends QueuedFollowUp {
  content: ContentPart[];
  settle(outcome: Promise<TurnOutcome | undefined>): void;
}

export class FollowUpQueue {
  private entries: Entry[] = [];
  /** Joined the running turn: settled with its outcome when it ends. */
  private joined: Entry[] = [];
  private nextId = 1;
  private holding = false;

  constructor(private readonly publish: (event: EngineEvent) => void) {}

  /** True after an interrupt that kept the queue: nothing queued moves until it is released. */
  get held(): boolean {
    return this.holding;
  }

  /** Something queued may move now (joins a turn or starts one). */
  get ready(): boolean {
    return !this.holding && this.entries.length > 0;
  }

  list(): QueuedFollowUp[] {
    return this.entries.map(({ id, text }) => ({ id, text }));
  }

  add(content: ContentPart[], text: string): FollowUp {
    let settle!: Entry["settle"];
    const outcome = new Promise<TurnOutcome | undefined>((resolve) => {
      settle = resolve;
    });
    outcome.catch(() => undefined);
    const entry: Entry = { id: this.nextId++, text, content, settle };
    this.entries.push(entry);
    this.changed("queued", entry);
    return { id: entry.id, outcome };
  }

  /** The oldest follow-up joins the running turn `turn` (after a tool batch), unless held. */
  join(turn: number): ContentPart[] | undefined {
    if (!this.ready) return undefined;
    const entry = this.entries.shift()!;
    this.joined.push(entry);
    this.changed("joined", entry, turn);
    return entry.content;
  }

  /** The follow-up that joined last was refused (a UserPromptSubmit hook): it settles now with `outcome`. */
  refuseJoined(outcome: TurnOutcome): void {
    this.joined.pop()?.settle(Promise.resolve(outcome));
  }

  /** The oldest follow-up leaves to start a turn; `settle` gets that turn's outcome. */
  start(): Entry | undefined {
    if (!this.ready) return undefined;
    const entry = this.entries.shift()!;
    this.changed("started", entry);
    return entry;
  }

  /** The running turn ended: the follow-ups that joined it get its outcome. */
  settleJoined(outcome: Promise<TurnOutcome | undefined>): void {
    const joined = this.joined;
    this.joined = [];
    for (const entry of joined) entry.settle(outcome);
  }

  /** The newest follow-up comes back out (to be edited and sent again). */
  takeBack(): QueuedFollowUp | undefined {
    const entry = this.entries.pop();
    if (!entry) return undefined;
    if (this.entries.length === 0) this.holding = false;
    entry.settle(Promise.resolve(undefined));
    this.changed("taken_back", entry);
    return { id: entry.id, text: entry.text };
  }

  /** Every queued follow-up goes (a session switch, a closed session, ACP's cancel). */
  drop(): void {
    this.holding = false;
    while (this.entries.length > 0) {
      const entry = this.entries.shift()!;
      entry.settle(Promise.resolve(undefined));
      this.changed("dropped", entry);
    }
  }

  /** An interrupt that keeps the queue: it stays, but waits for `release` (R-UI-5). */
  hold(): void {
    if (this.holding || this.entries.length === 0) return;
    this.holding = true;
    this.changed("held");
  }

  release(): void {
    if (!this.holding) return;
    this.holding = false;
    this.changed("released");
  }

  private changed(change: FollowUpChange, entry?: Entry, turn?: number): void {
    this.publish({
      type: "follow_up",
      change,
      ...(entry ? { follow_up: { id: entry.id, text: entry.text } } : {}),
      ...(turn !== undefined ? { turn } : {}),
      queued: this.list(),
      held: this.holding,
    });
  }
}
