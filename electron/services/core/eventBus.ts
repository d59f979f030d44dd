import type { EventName, EventPayload } from '../../../shared/contract';

export type EventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/** Fan-out of events from the services to every connected transport (IPC window, bridge SSE). */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) {
      try {
        listener(name, payload);
      } catch {
        // One broken transport must not stop the others from hearing the event.
      }
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
