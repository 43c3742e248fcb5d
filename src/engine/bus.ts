// The engine's event subscription: front ends subscribe, the engine publishes. Synchronous
// delivery keeps event order identical to commit order.
import type { EngineEvent } from "./events.js";

export type Listener = (event: EngineEvent) => void;

export class EventBus {
  private readonly listeners = new Set<Listener>();

  /** `filter` rewrites each event once before delivery (the library's key redaction). */
  constructor(private readonly filter?: (event: EngineEvent) => EngineEvent) {}
  /** Events from background work (tool servers starting) that came before anyone listened. */
  private held: EngineEvent[] = [];

  subscribe(listener: Listener): () => void {
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
