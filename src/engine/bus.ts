// The engine's event subscription: front ends subscribe, the engine publishes. Synchronous
// delivery keeps event order identical to commit order.
import type { EngineEvent } from "./events.js";

export type Listener = (event: EngineEvent) => void;

export class EventBus {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: EngineEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
