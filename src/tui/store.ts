// A tiny external store around the reducer: the controller dispatches, React subscribes
// (useSyncExternalStore), so components hold no state of their own beyond drawing.
import { reduce } from "./reducer.js";
import type { UiAction } from "./ui-actions.js";
import type { UiState } from "./ui-state.js";

export class Store {
  private listeners = new Set<() => void>();

  constructor(private state: UiState) {}

  get = (): UiState => this.state;

  dispatch(action: UiAction): void {
    const next = reduce(this.state, action);
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
