// The engine's event subscription: front ends subscribe, the engine publishes. Synchronous
// delivery keeps event order identical to commit order.
import type { EngineEvent, Listener } from "./door/events.js";

export class EventBus {
  private readonly listeners = new Set<Listener>();

  /** `filter` rewrites each event once before delivery (the library's key redaction). */
  constructor(private readonly filter?: (event: EngineEvent) => EngineEvent) {}
  /** Events from background work (tool servers starting) that came before anyone listened. */
  private held: EngineEvent[] = [];

  /**
   * A sub-agent's events (R-AGENT-1) carry its `session` id; they reach only a listener that asks
   * for them with `children` (`tern run --json`), so no front end draws a child's text as its own.
   */
  subscribe(given: Listener, opts: { children?: boolean } = {}): () => void {
    const listener: Listener = opts.children
      ? given
      : (event) => {
          if ((event as { session?: string }).session === undefined) given(event);
        };
    this.listeners.add(listener);
    if (this.held.length > 0) {
      // After the subscriber's own synchronous start-up lines (the `session` event comes first).
      queueMicrotask(() => {
        const held = this.held;
        this.held = [];
        for (const event of held) this.publish(event);
      });
    }
    return () => this.listeners.delete(listener);
  }

  publish(event: EngineEvent): void {
    if (this.listeners.size === 0) return;
    const delivered = this.filter ? this.filter(event) : event;
    for (const listener of this.listeners) listener(delivered);
  }

  /** Publishes now, or holds the event for the first subscriber when there is none yet. */
  publishOrHold(event: EngineEvent): void {
    if (this.listeners.size > 0) this.publish(event);
    else this.held.push(event);
  }
}
