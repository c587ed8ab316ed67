import {
  type Language,
  RULE_INPUT_KEY,
  RULE_KEY,
  RULE_MAX_INPUTS,
  RULE_PARAM_NAME,
  type Rule,
  type RuleParam,
  type RuleSaveRequest,
  type RuleTreeProject,
} from "@agentfair/contracts";
import { FormulaError, formulaErrorText } from "@agentfair/contracts/rules-formula";
import { generateText } from "ai";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { ruleDirs, ruleProjects, ruleProposals, rules, users } from "../../db/schema/index.ts";
import type { RuleFieldConfig, RuleParamRow, RuleProposalPayload } from "../../db/schema/rules.ts";
import type { Caller } from "../../platform/auth.ts";
import { AppError, badRequest, notFound } from "../../platform/errors.ts";
import type { Platform } from "../../platform/platform.ts";
import type { DataReader, DatatablesService } from "../datatables/datatables.service.ts";
import type { ModelsService } from "../models/models.service.ts";
import { chatModelOf } from "../models/provider.ts";
import { compile, evaluateTree, type EvalResult, inputValue, PARAM_NAME, type Value } from "./formula/evaluate.ts";
import { functionList } from "./formula/evaluate.ts";

type RuleRow = typeof rules.$inferSelect;
type ProjectRow = typeof ruleProjects.$inferSelect;

/** Marks the prompts, so the local test model knows what it is asked (see test/llm-server.ts). */
export const AI_EXPRESSION_MARK = "【规则表达式生成】";
export const AI_SQL_MARK = "【规则SQL生成】";

export interface RulesDeps {
  datatables: DatatablesService;
  models: () => ModelsService | undefined;
}

/** A formula error in the envelope: its text in both languages, the handler picks one. */
export function formulaAppError(e: FormulaError) {
  return new AppError("ruleFormula", 400, { zh: formulaErrorText(e, "zh"), en: formulaErrorText(e, "en") });
}

const isStale = (r: { remark: string; aiRemark: string }) => r.aiRemark.trim() !== "" && r.remark.trim() !== r.aiRemark.trim();

/**
 * The rule engine library: projects → directories → rules. The owner (or an administrator) edits;
 * public rules are readable and usable by the owner's tenant. One access check per object kind.
 */
export class RulesService {
  constructor(
    private readonly platform: Platform,
    private readonly deps: RulesDeps,
  ) {}

  private get db() {
    return this.platform.db;
  }

  private mine(caller: Caller, row: { ownerId: string; tenantId: string }) {
    return caller.isAdmin || (row.ownerId === caller.userId && row.tenantId === caller.tenantId);
  }

  // ---- access --------------------------------------------------------------------------------

  private async project(caller: Caller, id: string, action: "read" | "write"): Promise<ProjectRow> {
    const [row] = await this.db.select().from(ruleProjects).where(eq(ruleProjects.id, id));
    if (!row) throw notFound();
    if (this.mine(caller, row)) return row;
    if (action === "read" && row.tenantId === caller.tenantId) return row;
    throw notFound();
  }

  private async rule(caller: Caller, id: string, action: "read" | "write"): Promise<RuleRow> {
    const [row] = await this.db.select().from(rules).where(eq(rules.id, id));
    if (!row) throw notFound();
    if (this.mine(caller, row)) return row;
    if (action === "read" && row.isPublic && row.tenantId === caller.tenantId) return row;
    throw notFound();
  }

  // ---- tree ----------------------------------------------------------------------------------

  /** The caller's projects with their directories and rules, plus the public rules of the tenant. */
  async tree(caller: Caller, search = ""): Promise<RuleTreeProject[]> {
    const projects = await this.db
      .select()
      .from(ruleProjects)
      .where(
        caller.isAdmin
          ? undefined
          : or(
              and(eq(ruleProjects.ownerId, caller.userId), eq(ruleProjects.tenantId, caller.tenantId)),
              sql`exists (select 1 from ${rules} where ${rules.projectId} = ${ruleProjects.id} and ${rules.isPublic} and ${rules.tenantId} = ${caller.tenantId})`,
            ),
      )
      .orderBy(ruleProjects.createdAt);
    if (!projects.length) return [];
    const ids = projects.map((p) => p.id);
    const dirs = await this.db.select().from(ruleDirs).where(inArray(ruleDirs.projectId, ids)).orderBy(ruleDirs.createdAt);
    const all = await this.db.select().from(rules).where(inArray(rules.projectId, ids)).orderBy(rules.createdAt, rules.ruleKey);
    const q = search.trim().toLowerCase();
    const visible = all.filter(
      (r) =>
        (this.mine(caller, r) || (r.isPublic && r.tenantId === caller.tenantId)) &&
        (!q || r.name.toLowerCase().includes(q) || r.ruleKey.toLowerCase().includes(q)),
    );
    const ruleItem = (r: RuleRow) => ({
      id: r.id,
      name: r.name,
      ruleKey: r.ruleKey,
      useData: r.useData,
      isPublic: r.isPublic,
      mine: this.mine(caller, r),
    });
    return projects
      .map((p) => {
        const own = this.mine(caller, p);
        const pDirs = dirs.filter((d) => d.projectId === p.id);
        const ruleDirsOut = pDirs.map((d) => ({ id: d.id, name: d.name, rules: visible.filter((r) => r.dirId === d.id).map(ruleItem) }));
        const loose = visible.filter((r) => r.projectId === p.id && !r.dirId);
        // Rules without a directory sit in one named after the project's id, so the tree keeps three levels.
        if (loose.length) ruleDirsOut.unshift({ id: `${p.id}:root`, name: "", rules: loose.map(ruleItem) });
        return {
          id: p.id,
          name: p.name,
          description: p.description,
          fieldConfig: p.fieldConfig,
          mine: own,
          ruleDirs: own ? ruleDirsOut : ruleDirsOut.filter((d) => d.rules.length),
        };
      })
      .filter((p) => !q || p.mine || p.ruleDirs.some((d) => d.rules.length))
      .filter((p) => !q || p.ruleDirs.some((d) => d.rules.length) || p.name.toLowerCase().includes(q));
  }

  async createProject(caller: Caller, input: { name: string; description: string; fieldConfig: RuleFieldConfig[] }) {
    const [row] = await this.db
      .insert(ruleProjects)
      .values({ tenantId: caller.tenantId, ownerId: caller.userId, ...input })
      .returning();
    return { id: row.id };
  }

  async updateProject(caller: Caller, input: { id: string; name: string; description: string; fieldConfig: RuleFieldConfig[] }) {
    const row = await this.project(caller, input.id, "write");
    await this.db
      .update(ruleProjects)
      .set({ name: input.name, description: input.description, fieldConfig: input.fieldConfig })
      .where(eq(ruleProjects.id, row.id));
  }

  async deleteProject(caller: Caller, id: string) {
    const row = await this.project(caller, id, "write");
    const [other] = await this.db
      .select({ id: rules.id })
      .from(rules)
      .where(and(eq(rules.projectId, row.id), sql`${rules.ownerId} <> ${row.ownerId}`))
      .limit(1);
    if (other) throw badRequest("ruleProjectNotEmpty");
    await this.db.delete(ruleProjects).where(eq(ruleProjects.id, row.id));
  }

  async createDir(caller: Caller, input: { projectId: string; name: string }) {
    const project = await this.project(caller, input.projectId, "write");
    const [row] = await this.db.insert(ruleDirs).values({ projectId: project.id, name: input.name }).returning();
    return { id: row.id };
  }

  private async dir(caller: Caller, id: string) {
    const [row] = await this.db.select().from(ruleDirs).where(eq(ruleDirs.id, id));
    if (!row) throw notFound();
    const project = await this.project(caller, row.projectId, "write");
    return { row, project };
  }

  async renameDir(caller: Caller, id: string, name: string) {
    const { row } = await this.dir(caller, id);
    await this.db.update(ruleDirs).set({ name }).where(eq(ruleDirs.id, row.id));
  }

  async deleteDir(caller: Caller, id: string) {
    const { row } = await this.dir(caller, id);
    await this.db.delete(ruleDirs).where(eq(ruleDirs.id, row.id));
  }

  // ---- rules ---------------------------------------------------------------------------------

  private async names(ids: (string | null)[]) {
    const list = [...new Set(ids.filter((x): x is string => !!x))];
    if (!list.length) return new Map<string, string>();
    const rows = await this.db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, list));
    return new Map(rows.map((r) => [r.id, r.username]));
  }

  private async toWire(caller: Caller, r: RuleRow): Promise<Rule> {
    const names = await this.names([r.ownerId, r.updatedBy]);
    return {
      ...r.inputs,
      id: r.id,
      projectId: r.projectId,
      dirId: r.dirId,
      name: r.name,
      ruleKey: r.ruleKey,
      description: r.description,
      remark: r.remark,
      useData: r.useData,
      formKeys: r.formKeys,
      params: r.params,
      expression: r.expression,
      showExpression: r.showExpression,
      expressionCn: r.expressionCn,
      aiRemark: r.aiRemark,
      isPublic: r.isPublic,
      category: r.category,
      creator: names.get(r.ownerId) ?? "",
      updater: names.get(r.updatedBy ?? r.ownerId) ?? "",
      createTime: r.createdAt.toISOString(),
      updateTime: r.updatedAt.toISOString(),
      stale: isStale(r),
      mine: this.mine(caller, r),
    };
  }

  async get(caller: Caller, id: string) {
    return this.toWire(caller, await this.rule(caller, id, "read"));
  }

  /** The spec's validations (doc 2 §5), in its order, with its messages. */
  private async validate(caller: Caller, input: RuleSaveRequest) {
    if (!input.name.trim()) throw badRequest("ruleNameRequired");
    if (!RULE_KEY.test(input.ruleKey.trim())) throw badRequest("ruleKeyRequired");
    if (!input.description.trim()) throw badRequest("ruleDescriptionRequired");
    if (!input.params.length) throw badRequest("ruleParamsRequired");
    const seen = new Set<string>();
    const tables = await this.deps.datatables.readableTables(caller);
    for (const p of input.params) {
      if (!RULE_PARAM_NAME.test(p.name) || seen.has(p.name)) throw badRequest("ruleParamInvalid", { name: p.name.slice(0, 64) });
      seen.add(p.name);
      if (p.type === "sql") {
        if (!p.tableName.trim() || !p.sql.trim()) throw badRequest("ruleParamSqlRequired", { name: p.name });
        this.deps.datatables.check(tables, p.sql, sqlInputNames(input.params));
      }
    }
    if (!input.expression.trim()) throw badRequest("ruleExpressionRequired");
    if (isStale(input)) throw badRequest("ruleGenerateFirst");
    try {
      return compile(input.expression, seen, labelsOf(input.params));
    } catch (e) {
      if (e instanceof FormulaError) throw formulaAppError(e);
      throw e;
    }
  }

  /** Save (doc 2 §7): creates without an id, else updates; 'Save successful' or the server msg. */
  async save(caller: Caller, input: RuleSaveRequest) {
    const compiled = await this.validate(caller, input);
    const project = await this.project(caller, input.projectId, "write");
    let dirId: string | null = input.dirId && !input.dirId.endsWith(":root") ? input.dirId : null;
    if (dirId) {
      const { row } = await this.dir(caller, dirId);
      if (row.projectId !== project.id) throw notFound();
      dirId = row.id;
    }
    const fieldKeys = new Set(project.fieldConfig.map((f) => f.key));
    const inputs: Record<string, string> = {};
    for (const [k, v] of Object.entries(input)) if (RULE_INPUT_KEY.test(k) && fieldKeys.has(k) && typeof v === "string") inputs[k] = v;
    const tableNames = new Set((await this.deps.datatables.readableTables(caller)).map((t) => t.name));
    const formKeys = [...new Set([...input.formKeys, ...input.params.filter((p) => p.type === "sql").map((p) => p.tableName)])].filter(
      (n) => tableNames.has(n),
    );
    const values = {
      projectId: project.id,
      dirId,
      name: input.name.trim(),
      ruleKey: input.ruleKey.trim(),
      description: input.description,
      remark: input.remark,
      useData: input.useData,
      formKeys,
      params: input.params.map(paramRow),
      expression: input.expression,
      showExpression: compiled.showExpression,
      expressionCn: compiled.expressionCn,
      aiRemark: input.aiRemark,
      isPublic: input.isPublic,
      category: input.category,
      inputs,
      updatedBy: caller.userId,
      updatedAt: new Date(),
    };
    const clash = await this.db
      .select({ id: rules.id })
      .from(rules)
      .where(and(eq(rules.projectId, project.id), sql`lower(${rules.ruleKey}) = ${values.ruleKey.toLowerCase()}`));
    if (clash.some((c) => c.id !== input.id)) throw badRequest("ruleKeyTaken", { key: values.ruleKey });
    try {
      if (input.id) {
        const row = await this.rule(caller, input.id, "write");
        await this.db.update(rules).set(values).where(eq(rules.id, row.id));
        return this.get(caller, row.id);
      }
      const [row] = await this.db
        .insert(rules)
        .values({ ...values, tenantId: caller.tenantId, ownerId: caller.userId })
        .returning();
      return this.get(caller, row.id);
    } catch (e) {
      if (
        (e as { code?: string; cause?: { code?: string } }).code === "23505" ||
        (e as { cause?: { code?: string } }).cause?.code === "23505"
      )
        throw badRequest("ruleKeyTaken", { key: values.ruleKey });
      throw e;
    }
  }

  async setState(caller: Caller, id: string, state: { useData?: 0 | 1; isPublic?: boolean }) {
    const row = await this.rule(caller, id, "write");
    await this.db
      .update(rules)
      .set({
        ...(state.useData !== undefined ? { useData: state.useData } : {}),
        ...(state.isPublic !== undefined ? { isPublic: state.isPublic } : {}),
        updatedBy: caller.userId,
        updatedAt: new Date(),
      })
      .where(eq(rules.id, row.id));
    return this.get(caller, row.id);
  }

  async remove(caller: Caller, id: string) {
    const row = await this.rule(caller, id, "write");
    await this.db.delete(rules).where(eq(rules.id, row.id));
  }

  // ---- evaluation ----------------------------------------------------------------------------

  /**
   * Evaluates an expression with given values; SQL fields among `ruleParams` are computed through
   * the read-only guard over the data tables `reader` may read (the rule's author) (one value, or the first column as a list).
   * An SQL field reads the rule's inputs by name (`:region`, `#{input1}`) as bound parameters: the
   * given values, with the rule's own input1..N (`configured`) over them, so a caller cannot
   * replace what the rule's author set.
   */
  async evaluate(
    reader: DataReader,
    expression: string,
    params: Record<string, unknown>,
    ruleParams: RuleParam[] = [],
    configured: Record<string, string> = {},
  ): Promise<EvalResult> {
    let compiled: ReturnType<typeof compile>;
    try {
      compiled = compile(expression);
    } catch (e) {
      if (e instanceof FormulaError) throw formulaAppError(e);
      throw e;
    }
    const values = new Map<string, Value>();
    for (const [k, v] of Object.entries(params)) if (PARAM_NAME.test(k)) values.set(k, inputValue(v));
    const sqlInputs: Record<string, unknown> = {};
    for (const name of sqlInputNames(ruleParams)) sqlInputs[name] = params[name] ?? null;
    for (const [k, v] of Object.entries(configured)) if (RULE_INPUT_KEY.test(k)) sqlInputs[k] = v;
    for (const p of ruleParams) {
      if (p.type !== "sql" || !p.sql.trim()) continue;
      const result = await this.deps.datatables.query(reader, p.sql, sqlInputs);
      const first = result.rows.map((r) => r[0] ?? null);
      values.set(p.name, result.rows.length === 1 && result.columns.length === 1 ? first[0] : first);
    }
    try {
      const out = evaluateTree(expression, compiled.tree, values);
      return { value: out.value, trace: out.trace };
    } catch (e) {
      if (e instanceof FormulaError) throw formulaAppError(e);
      throw e;
    }
  }

  /** Evaluates a stored rule by key (the model's tool): enabled rules of those given. */
  async evaluateRule(row: RuleRow, inputs: Record<string, unknown>) {
    if (row.useData !== 1) throw badRequest("ruleDisabled", { key: row.ruleKey });
    const result = await this.evaluate({ userId: row.ownerId, tenantId: row.tenantId }, row.expression, inputs, row.params, row.inputs);
    return { ruleKey: row.ruleKey, name: row.name, value: result.value, expressionCn: row.expressionCn, trace: result.trace.slice(-10) };
  }

  /** Rules an agent binds: by rule, directory or project id; its owner's, or public ones of its tenant. */
  async boundRules(agent: { ownerId: string; tenantId: string }, ids: string[]) {
    if (!ids.length) return [];
    const rows = await this.db
      .select()
      .from(rules)
      .where(and(eq(rules.tenantId, agent.tenantId), or(inArray(rules.id, ids), inArray(rules.dirId, ids), inArray(rules.projectId, ids))));
    return rows.filter((r) => r.useData === 1 && (r.ownerId === agent.ownerId || r.isPublic));
  }

  /**
   * The agent's `ruleTree` and `rules` (doc 2 §3 Agent): the bound part of the library, projects →
   * ruleDirs → the enabled rules it evaluates (a bound directory or project shows all of them), and
   * the ids bound in the studio that still lead to one. `viewer` decides `mine`.
   */
  async agentRules(
    agent: { ownerId: string; tenantId: string },
    ids: string[],
    viewer: Caller | null,
  ): Promise<{ ruleTree: RuleTreeProject[]; rules: string[] }> {
    const bound = await this.boundRules(agent, ids);
    if (!bound.length) return { ruleTree: [], rules: [] };
    const projects = await this.db
      .select()
      .from(ruleProjects)
      .where(inArray(ruleProjects.id, [...new Set(bound.map((r) => r.projectId))]))
      .orderBy(ruleProjects.createdAt);
    const dirIds = [...new Set(bound.map((r) => r.dirId).filter((d): d is string => !!d))];
    const dirs = dirIds.length ? await this.db.select().from(ruleDirs).where(inArray(ruleDirs.id, dirIds)).orderBy(ruleDirs.createdAt) : [];
    const mine = (row: { ownerId: string; tenantId: string }) => !!viewer && this.mine(viewer, row);
    const item = (r: RuleRow) => ({ id: r.id, name: r.name, ruleKey: r.ruleKey, useData: r.useData, isPublic: r.isPublic, mine: mine(r) });
    bound.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.ruleKey.localeCompare(b.ruleKey));
    const ruleTree = projects.map((p) => {
      const loose = bound.filter((r) => r.projectId === p.id && !r.dirId);
      return {
        id: p.id,
        name: p.name,
        description: p.description,
        fieldConfig: p.fieldConfig,
        mine: mine(p),
        ruleDirs: [
          ...(loose.length ? [{ id: `${p.id}:root`, name: "", rules: loose.map(item) }] : []),
          ...dirs
            .filter((d) => d.projectId === p.id)
            .map((d) => ({ id: d.id, name: d.name, rules: bound.filter((r) => r.dirId === d.id).map(item) })),
        ],
      };
    });
    const rules = ids.filter((id) => bound.some((r) => r.id === id || r.dirId === id || r.projectId === id));
    return { ruleTree, rules };
  }

  /**
   * Fast config from the chat (chatOption.enableFastConfigRuleOnChat), step one: the agent owner
   * describes a rule; the expression is generated from that remark and checked, and the rule is
   * proposed (nothing saved) for the reply to put to the user. An existing rule of the owner with
   * that key would be adjusted, else a new one goes to the project "对话配置的规则".
   */
  async proposeRule(
    caller: Caller,
    sessionId: string,
    input: { name: string; ruleKey: string; remark: string; params: { name: string; description?: string }[] },
  ) {
    const params: RuleParam[] = input.params.slice(0, 20).map((p) => ({
      name: String(p.name ?? "").slice(0, 64),
      type: "basic",
      description: String(p.description ?? "").slice(0, 500),
      tableName: "",
      sql: "",
    }));
    const generated = await this.aiExpression(caller, { remark: input.remark, params });
    const payload = {
      name: input.name.trim(),
      ruleKey: input.ruleKey.trim(),
      remark: input.remark,
      params: params.map(paramRow),
      expression: generated.expression,
      aiRemark: generated.aiRemark,
    };
    // The checks a save makes, now, so the user is never asked to confirm what cannot be saved.
    await this.validate(caller, { ...fastConfigRequest(payload, "", null), description: payload.remark.slice(0, 2000) || payload.name });
    const existing = await this.ownRuleByKey(caller, payload.ruleKey);
    await this.db.delete(ruleProposals).where(sql`${ruleProposals.createdAt} < now() - interval '1 day'`);
    const [row] = await this.db
      .insert(ruleProposals)
      .values({ tenantId: caller.tenantId, ownerId: caller.userId, sessionId, payload })
      .returning({ id: ruleProposals.id });
    return {
      proposalId: row.id,
      adjusts: !!existing,
      name: payload.name,
      ruleKey: payload.ruleKey,
      expression: generated.showExpression,
      expressionCn: generated.expressionCn,
      confirmQuestion: `${existing ? "将调整" : "将创建"}规则「${payload.name}」（${payload.ruleKey}）：${generated.showExpression}，即：${generated.expressionCn}。提案编号：${row.id}。请回复“确认”保存规则。`,
    };
  }

  /**
   * Step two, after the user confirmed in a later message of the same session: the proposal is
   * saved as it was shown (created, or the owner's rule with that key adjusted) and used up.
   */
  async confirmRule(caller: Caller, sessionId: string, proposalId: string) {
    const [proposal] = await this.db
      .select()
      .from(ruleProposals)
      .where(
        and(
          eq(ruleProposals.id, proposalId),
          eq(ruleProposals.ownerId, caller.userId),
          eq(ruleProposals.tenantId, caller.tenantId),
          eq(ruleProposals.sessionId, sessionId),
          sql`${ruleProposals.createdAt} >= now() - interval '1 day'`,
        ),
      );
    if (!proposal) throw badRequest("ruleProposalMissing");
    const p = proposal.payload;
    const existing = await this.ownRuleByKey(caller, p.ruleKey);
    let projectId = existing?.projectId;
    if (!projectId) {
      const name = "对话配置的规则";
      const [found] = await this.db
        .select({ id: ruleProjects.id })
        .from(ruleProjects)
        .where(and(eq(ruleProjects.ownerId, caller.userId), eq(ruleProjects.tenantId, caller.tenantId), eq(ruleProjects.name, name)))
        .limit(1);
      projectId = found?.id ?? (await this.createProject(caller, { name, description: "", fieldConfig: [] })).id;
    }
    const saved = await this.save(caller, {
      ...fastConfigRequest(p, projectId, existing ?? null),
      description: existing?.description || p.remark.slice(0, 2000) || p.name,
    });
    await this.db.delete(ruleProposals).where(eq(ruleProposals.id, proposal.id));
    return {
      saved: true,
      adjusted: !!existing,
      ruleId: saved.id,
      ruleKey: saved.ruleKey,
      name: saved.name,
      expression: saved.showExpression,
      expressionCn: saved.expressionCn,
    };
  }

  private async ownRuleByKey(caller: Caller, ruleKey: string) {
    const [row] = await this.db
      .select()
      .from(rules)
      .where(
        and(eq(rules.ownerId, caller.userId), eq(rules.tenantId, caller.tenantId), sql`lower(${rules.ruleKey}) = ${ruleKey.toLowerCase()}`),
      )
      .limit(1);
    return row as RuleRow | undefined;
  }

  functions(lang: Language) {
    return functionList(lang);
  }

  /** The data sources a rule of the project may read: the tenant's data tables. */
  async forms(caller: Caller, projectId?: string) {
    if (projectId) await this.project(caller, projectId, "read");
    const tables = await this.deps.datatables.readableTables(caller);
    return tables.map((t) => ({
      name: t.name,
      introduction: t.introduction,
      fields: t.fields.map((f) => ({ name: f.name, label: f.label, type: f.type })),
    }));
  }

  // ---- AI ------------------------------------------------------------------------------------

  private async model(caller: Caller) {
    const model = await this.deps.models()?.usable(caller.tenantId, "LLM");
    if (!model) throw new AppError("noModel", 400);
    return model;
  }

  private async ask(caller: Caller, prompt: string) {
    const model = await this.model(caller);
    try {
      const { text } = await generateText({
        model: chatModelOf(model),
        prompt,
        maxOutputTokens: 400,
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(30_000),
      });
      return text;
    } catch (e) {
      throw badRequest("ruleGenerateFailed", { detail: String((e as Error).message ?? e).slice(0, 120) });
    }
  }

  /** An expression written by the model from the remark, parsed and checked before it is offered. */
  async aiExpression(caller: Caller, input: { remark: string; params: RuleParam[] }) {
    const remark = input.remark.trim();
    if (!remark) throw badRequest("ruleRemarkRequired");
    const params = input.params.filter((p) => RULE_PARAM_NAME.test(p.name));
    const fns = functionList("zh")
      .map((f) => `${f.name}: ${f.description}，例：${f.example}`)
      .join("\n");
    const prompt = [
      AI_EXPRESSION_MARK,
      "把下面的规则配置写成一个表达式。只能使用给出的参数名和函数，字符串用双引号，比较用 = <> < > <= >=，不要解释，只输出表达式本身。",
      `PARAMS: ${params.map((p) => p.name).join(", ")}`,
      ...params.map((p) => `- ${p.name}: ${p.description || p.name}`),
      `函数：\n${fns}`,
      `规则配置：${remark.slice(0, 2000)}`,
    ].join("\n");
    const text = await this.ask(caller, prompt);
    const expression = extractAnswer(text).replace(/^=/, "").trim();
    try {
      const compiled = compile(expression, new Set(params.map((p) => p.name)), labelsOf(params));
      return {
        expression: compiled.showExpression,
        showExpression: compiled.showExpression,
        expressionCn: compiled.expressionCn,
        aiRemark: input.remark,
      };
    } catch (e) {
      if (e instanceof FormulaError)
        throw badRequest("ruleGenerateFailed", { detail: `${expression.slice(0, 80)} — ${formulaErrorText(e, "en")}` });
      throw e;
    }
  }

  /** SQL for an SQL field, written by the model and passed through the guard before it is offered. */
  async aiSql(caller: Caller, input: { projectId: string; question: string; name: string; tableNames: string[] }) {
    if (!input.tableNames.length || !input.name.trim() || !input.question.trim()) throw badRequest("ruleSqlFieldsRequired");
    if (input.projectId) await this.project(caller, input.projectId, "read");
    const tables = (await this.deps.datatables.readableTables(caller)).filter((t) => input.tableNames.includes(t.name));
    if (!tables.length) throw badRequest("sqlTable", { detail: input.tableNames.join(", ").slice(0, 100) });
    const prompt = [
      AI_SQL_MARK,
      "写一条 PostgreSQL 的 SELECT 语句（只读，只能用下面的表），结果为一个值或一列。不要解释，只输出SQL。",
      ...tables.map((t) => `TABLE ${t.name}(${t.fields.map((f) => `${f.name} ${f.type}${f.label ? ` -- ${f.label}` : ""}`).join(", ")})`),
      `参数名称：${input.name.slice(0, 64)}`,
      `参数内容：${input.question.slice(0, 2000)}`,
    ].join("\n");
    const text = await this.ask(caller, prompt);
    const sqlText = extractAnswer(text).replace(/;\s*$/, "");
    this.deps.datatables.check(tables, sqlText);
    return { sql: sqlText };
  }
}

/** What a rule's SQL fields may read by name: its basic fields and the project's input1..N. */
function sqlInputNames(params: Pick<RuleParam, "name" | "type">[]) {
  const inputs = Array.from({ length: RULE_MAX_INPUTS }, (_, i) => `input${i + 1}`);
  return [...new Set([...params.filter((p) => p.type === "basic").map((p) => p.name), ...inputs])];
}

/** A chat-proposed rule as a save request: an adjusted rule keeps its place, state and data sources. */
function fastConfigRequest(p: RuleProposalPayload, projectId: string, existing: RuleRow | null): RuleSaveRequest {
  return {
    id: existing?.id ?? null,
    projectId,
    dirId: existing?.dirId ?? null,
    name: p.name,
    ruleKey: p.ruleKey,
    description: "",
    remark: p.remark,
    useData: 1,
    formKeys: existing?.formKeys ?? [],
    params: p.params,
    expression: p.expression,
    aiRemark: p.aiRemark,
    isPublic: existing?.isPublic ?? false,
    category: existing?.category ?? "",
  };
}

function labelsOf(params: Pick<RuleParam, "name" | "description">[]) {
  const out: Record<string, string> = {};
  for (const p of params) if (p.description.trim()) out[p.name] = p.description.trim().slice(0, 20);
  return out;
}

function paramRow(p: RuleParam): RuleParamRow {
  return {
    name: p.name,
    type: p.type,
    description: p.description,
    tableName: p.type === "sql" ? p.tableName : "",
    sql: p.type === "sql" ? p.sql : "",
  };
}

/** The answer inside a fenced block if there is one, else the first non-empty line. */
function extractAnswer(text: string) {
  const fenced = text.match(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/);
  const body = (fenced ? fenced[1] : text).trim();
  return fenced ? body : (body.split("\n").find((l) => l.trim()) ?? "").trim();
}
