import type { UiMessage } from "../components/chat/use-chat";

/** A bot message of the chat as the tests need it: empty lists, the rest given. */
export const botMessage = (over: Partial<UiMessage> = {}): UiMessage => ({
  uuid: Math.random().toString(36).slice(2),
  role: 2,
  content: "",
  toolCalls: [],
  question: [],
  files: [],
  media: [],
  docs: [],
  ...over,
});
