import {
  CONVERSATION_EXPORT_MAX,
  CONVERSATION_PAGE_SIZE,
  type ConversationItem,
  type ConversationMessage,
  type Language,
  type MessageFeedback,
  type TuningRecord,
} from "@agentfair/contracts";
import ExcelJS from "exceljs";
import { type Caller, requireAccess } from "../../platform/auth.ts";
import { badRequest, notFound } from "../../platform/errors.ts";
import { type MessageKey, translate } from "../../platform/messages.ts";
import type { Platform } from "../../platform/platform.ts";
import { type AgentAudience, ConversationsRepository, type TuningRow } from "./conversations.repository.ts";

/** What conversation details need of the agents: the one owner check (others: not found). */
export interface AgentsForConversations {
  requireOwner(caller: Caller, agentId: string): Promise<AgentAudience>;
}
/** What tuning records need of the knowledge bases: a Q&A pair added under the base's own owner check. */
export interface KnowledgeForTuning {
  addQaPair(caller: Caller, baseId: string, input: { question: string; answer: string }): Promise<unknown>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const EXPORT_COLUMNS: [MessageKey, number][] = [
  ["conversationColSession", 38],
  ["conversationColUser", 18],
  ["conversationColTitle", 24],
  ["conversationColTime", 20],
  ["conversationColRole", 8],
  ["conversationColContent", 60],
  ["conversationColInputTokens", 12],
  ["conversationColOutputTokens", 12],
  ["conversationColFeedback", 10],
  ["conversationColNote", 30],
  ["conversationColCorrected", 40],
];

/**
 * Conversation details for an agent's owner: the sessions of the agent the owner may read (their
 * own, their robots', their organisation's: see visibleTo), with messages, token cost and
 * feedback; and tuning records on replies.
 */
export class ConversationsService {
  private readonly repo: ConversationsRepository;

  constructor(
    platform: Platform,
    private readonly deps: { agents: () => AgentsForConversations | undefined; knowledge: () => KnowledgeForTuning | undefined },
  ) {
    this.repo = new ConversationsRepository(platform.db);
  }

  /** The owner check; the agent's audience decides which of its sessions the owner reads (see visibleTo). */
  private async owner(caller: Caller, agentId: string) {
    const agents = this.deps.agents();
    if (!agents) throw notFound();
    return agents.requireOwner(caller, agentId);
  }

  /** A session of the agent the owner may read; another agent's, or a private one, is not found. */
  private async sessionOf(agentId: string, agent: AgentAudience, sessionId: string) {
    const row = await this.repo.one(agentId, agent, sessionId);
    if (!row) throw notFound();
    return row.session;
  }

  async page(caller: Caller, agentId: string, q: { days: number; pageNo: number }) {
    const agent = await this.owner(caller, agentId);
    const since = new Date(Date.now() - q.days * DAY_MS);
    const { list, total } = await this.repo.page(agentId, agent, since, (q.pageNo - 1) * CONVERSATION_PAGE_SIZE, CONVERSATION_PAGE_SIZE);
    return { list: list.map(toItem), total };
  }

  async detail(caller: Caller, agentId: string, sessionId: string) {
    const agent = await this.owner(caller, agentId);
    const item = await this.repo.one(agentId, agent, sessionId);
    if (!item) throw notFound();
    const messages = await this.repo.messagesOf([sessionId]);
    const tuning = new Map((await this.repo.tuningOfMessages(messages.map((m) => m.id))).map((r) => [r.messageId, r.id]));
    return { ...toItem(item), list: messages.map((m) => toMessage(m, tuning.get(m.id) ?? null)) };
  }

  /** The range as a workbook or CSV: one row per message, with the tuning record of a reply. */
  async export(caller: Caller, agentId: string, days: number, format: "csv" | "xlsx", lang: Language) {
    const agent = await this.owner(caller, agentId);
    const since = new Date(Date.now() - days * DAY_MS);
    const { list } = await this.repo.page(agentId, agent, since, 0, CONVERSATION_EXPORT_MAX);
    const byId = new Map(list.map((r) => [r.session.id, r]));
    const messages = await this.repo.messagesOf([...byId.keys()]);
    const tuning = new Map((await this.repo.tuningOfMessages(messages.map((m) => m.id))).map((r) => [r.messageId, r]));
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet(translate("conversationSheet", lang));
    sheet.columns = EXPORT_COLUMNS.map(([key, width]) => ({ header: translate(key, lang), width }));
    // A CSV cell is read by spreadsheet programs as a formula when it starts with = + - @ (or a tab or
    // return before one): text the askers wrote stays text. An xlsx cell is typed as text already.
    const cell = (v: string) => (format === "csv" && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v);
    for (const m of messages) {
      const s = byId.get(m.sessionId)!;
      const t = tuning.get(m.id);
      sheet.addRow([
        m.sessionId,
        cell(s.nickname || s.username),
        cell(s.session.title),
        m.createdAt.toISOString(),
        m.role,
        cell(m.content),
        m.inputTokens,
        m.outputTokens,
        m.feedback ?? "",
        cell(t?.note ?? ""),
        cell(t?.correctedAnswer ?? ""),
      ]);
    }
    const data = Buffer.from(format === "xlsx" ? await book.xlsx.writeBuffer() : await book.csv.writeBuffer());
    // A BOM so spreadsheet programs read the CSV's Chinese as UTF-8.
    return format === "csv" ? Buffer.concat([Buffer.from("\uFEFF"), data]) : data;
  }

  /** The asker's like or dislike of a reply in their own session. */
  async setFeedback(caller: Caller, messageId: string, feedback: MessageFeedback | null) {
    const message = await this.repo.message(messageId);
    const session = message && (await this.repo.session(message.sessionId));
    requireAccess(caller, session ? { ownerId: session.userId, tenantId: session.tenantId } : null, "write");
    if (message!.role === "user") throw badRequest("feedbackOnQuestion");
    await this.repo.setFeedback(messageId, feedback);
  }

  // ---- tuning records ------------------------------------------------------------------------------

  async tuningList(caller: Caller, agentId: string): Promise<TuningRecord[]> {
    const agent = await this.owner(caller, agentId);
    return (await this.repo.tuningOfAgent(agentId, agent)).map(toTuning);
  }

  async saveTuning(caller: Caller, agentId: string, input: { messageId: string; note: string; correctedAnswer: string }) {
    const agent = await this.owner(caller, agentId);
    const message = await this.repo.message(input.messageId);
    if (!message) throw notFound();
    const session = await this.sessionOf(agentId, agent, message.sessionId);
    if (message.role === "user") throw badRequest("feedbackOnQuestion");
    if (!input.note.trim() && !input.correctedAnswer.trim()) throw badRequest("tuningEmpty");
    const row = await this.repo.saveTuning({
      tenantId: caller.tenantId,
      ownerId: caller.userId,
      agentId,
      sessionId: session.id,
      messageId: message.id,
      question: await this.repo.questionBefore(session.id, message.createdAt),
      answer: message.content,
      note: input.note.trim(),
      correctedAnswer: input.correctedAnswer.trim(),
    });
    return toTuning(row);
  }

  private async ownTuning(caller: Caller, agentId: string, id: string) {
    const row = await this.repo.tuning(agentId, await this.owner(caller, agentId), id);
    if (!row) throw notFound();
    return row;
  }

  async removeTuning(caller: Caller, agentId: string, id: string) {
    await this.ownTuning(caller, agentId, id);
    await this.repo.removeTuning(id);
  }

  /** The question and the corrected answer as a Q&A pair of one of the caller's knowledge bases. */
  async pushTuning(caller: Caller, agentId: string, id: string, knowledgeId: string) {
    const row = await this.ownTuning(caller, agentId, id);
    if (!row.correctedAnswer.trim() || !row.question.trim()) throw badRequest("tuningNoCorrection");
    const knowledge = this.deps.knowledge();
    if (!knowledge) throw notFound();
    await knowledge.addQaPair(caller, knowledgeId, { question: row.question, answer: row.correctedAnswer });
    return toTuning(await this.repo.updateTuning(id, { knowledgeId, pushedAt: new Date() }));
  }
}

type PageRow = Awaited<ReturnType<ConversationsRepository["page"]>>["list"][number];

function toItem(r: PageRow): ConversationItem {
  return {
    sessionId: r.session.id,
    title: r.session.title,
    username: r.username,
    nickname: r.nickname,
    release: r.session.release,
    messages: r.messages,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    likes: r.likes,
    dislikes: r.dislikes,
    createdAt: r.session.createdAt.toISOString(),
    updatedAt: r.session.updatedAt.toISOString(),
  };
}

function toMessage(m: Awaited<ReturnType<ConversationsRepository["messagesOf"]>>[number], tuningId: string | null): ConversationMessage {
  return {
    id: m.id,
    role: m.role === "user" ? "user" : "bot",
    content: m.content,
    status: m.status,
    error: m.error,
    inputTokens: m.inputTokens,
    outputTokens: m.outputTokens,
    feedback: (m.feedback as MessageFeedback | null) ?? null,
    tuningId,
    createdAt: m.createdAt.toISOString(),
  };
}

function toTuning(r: TuningRow): TuningRecord {
  return {
    id: r.id,
    sessionId: r.sessionId,
    messageId: r.messageId,
    question: r.question,
    answer: r.answer,
    correctedAnswer: r.correctedAnswer,
    note: r.note,
    knowledgeId: r.knowledgeId,
    pushedAt: iso(r.pushedAt),
    updatedAt: r.updatedAt.toISOString(),
  };
}
