/**
 * The chat page's internal events (doc 2 §7, no network), on one typed bus so message cards,
 * the designer's buttons and the chat input can talk without importing each other.
 */
export interface ChatBusEvents {
  /** A designer button sends a message into the chat (text, and whether to send at once). */
  "send-chat-button": { text: string; flag?: boolean };
  /** A follow-up question (推荐提问) was clicked. */
  "send-msg-button": { text: string };
  /** A plugin item was chosen; retry sends the previous message again with its index and a reload flag. */
  "send-plugins-button": { title: string; content?: string; index?: number; reload?: boolean };
  /** A preset question of the prologue was clicked. */
  "send-preset-questions": { text: string };
  question: { text: string };
  viewRecord: { linkUrl: string };
}

type Handler<T> = (payload: T) => void;

export function createBus<E extends object>() {
  const handlers = new Map<keyof E, Set<Handler<never>>>();
  return {
    on<K extends keyof E>(name: K, handler: Handler<E[K]>) {
      if (!handlers.has(name)) handlers.set(name, new Set());
      handlers.get(name)!.add(handler as Handler<never>);
      return () => handlers.get(name)?.delete(handler as Handler<never>);
    },
    emit<K extends keyof E>(name: K, payload: E[K]) {
      for (const h of handlers.get(name) ?? []) (h as Handler<E[K]>)(payload);
    },
  };
}

export type ChatBus = ReturnType<typeof createBus<ChatBusEvents>>;
