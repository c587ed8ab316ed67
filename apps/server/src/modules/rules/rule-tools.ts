import type { Caller } from "../../platform/auth.ts";
import { AppError } from "../../platform/errors.ts";
import { translate } from "../../platform/messages.ts";
import type { RuntimeTool, ToolKind } from "../../runtime/tool-registry.ts";
import type { RulesService } from "./rules.service.ts";

export const RULE_TOOL_NAME = "evaluate_rule";
export const RULE_CONFIG_TOOL_NAME = "configure_rule";
export const RULE_CONFIRM_TOOL_NAME = "confirm_rule";

/**
 * The 'rule' tool kind: the enabled rules an agent binds (by rule, directory or project) offered to
 * the model as one tool, "evaluate rule by key with inputs". Only the agent owner's rules and the
 * public rules of its tenant count, whatever ids a draft holds.
 */
export function ruleToolKind(rules: RulesService): ToolKind {
  return {
    kind: "rule",
    async toolsFor({ agent, caller, sessionId }) {
      const out: RuntimeTool[] = [];
      // Only the agent's owner may write rules from its chat: they land in the owner's library.
      if (agent.chatOption.enableFastConfigRuleOnChat && caller.userId === agent.ownerId && caller.tenantId === agent.tenantId)
        out.push(...configTools(rules, caller, sessionId));
      const bound = await rules.boundRules(agent, agent.bindings.rules);
      if (!bound.length) return out;
      const byKey = new Map(bound.map((r) => [r.ruleKey, r]));
      const catalogue = bound
        .slice(0, 50)
        .map(
          (r) =>
            `- ${r.ruleKey}: ${r.name}${r.description ? `（${r.description.slice(0, 100)}）` : ""}; inputs: ${
              r.params
                .filter((p) => p.type === "basic")
                .map((p) => `${p.name}${p.description ? ` (${p.description.slice(0, 40)})` : ""}`)
                .join(", ") || "none"
            }`,
        )
        .join("\n");
      const tool: RuntimeTool = {
        name: RULE_TOOL_NAME,
        displayName: "规则引擎",
        description: `Evaluate a business rule by its key with input values and return the result. Rules:\n${catalogue}`.slice(0, 4000),
        parameters: {
          type: "object",
          properties: {
            ruleKey: { type: "string", enum: [...byKey.keys()], description: "the rule's key" },
            inputs: { type: "object", description: "input values by parameter name", additionalProperties: true },
          },
          required: ["ruleKey"],
        },
        async execute(args) {
          const a = (args ?? {}) as { ruleKey?: unknown; inputs?: unknown };
          const row = typeof a.ruleKey === "string" ? byKey.get(a.ruleKey) : undefined;
          if (!row) throw new Error(`no bound rule with key ${String(a.ruleKey).slice(0, 64)}`);
          const inputs = a.inputs && typeof a.inputs === "object" && !Array.isArray(a.inputs) ? (a.inputs as Record<string, unknown>) : {};
          return rules.evaluateRule(row, inputs);
        },
      };
      return [...out, tool];
    },
  };
}

/**
 * Fast config in two steps: configure_rule proposes (the expression generated from the user's words),
 * the reply asks the user, and confirm_rule saves once the user said yes in a later message. A
 * proposal made in this reply cannot be confirmed in it: the user has not seen it yet.
 */
function configTools(rules: RulesService, caller: Caller, sessionId: string): RuntimeTool[] {
  const proposedNow = new Set<string>();
  const zh = async <T>(run: () => Promise<T>) => {
    try {
      return await run();
    } catch (e) {
      if (e instanceof AppError) throw new Error(translate(e.key, "zh", e.params));
      throw e;
    }
  };
  const propose: RuntimeTool = {
    name: RULE_CONFIG_TOOL_NAME,
    displayName: "规则配置",
    description:
      "Propose a business rule from the user's words ('configure a rule that ...'): the expression is generated from the remark and checked, but nothing is saved yet. Put the answer's confirmQuestion to the user (with the proposal id) and wait for the user's confirmation.",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", description: "rule name" },
        ruleKey: { type: "string", description: "unique key: a letter, then letters, digits or underscores" },
        remark: { type: "string", description: "the rule in natural language" },
        params: {
          type: "array",
          description: "input parameters the rule reads",
          items: { type: "object", properties: { name: { type: "string" }, description: { type: "string" } }, required: ["name"] },
        },
      },
      required: ["name", "ruleKey", "remark", "params"],
    },
    async execute(args) {
      const a = (args ?? {}) as Record<string, unknown>;
      const text = (v: unknown, max: number) => (typeof v === "string" ? v.slice(0, max) : "");
      const params = Array.isArray(a.params) ? (a.params as { name?: unknown; description?: unknown }[]) : [];
      const proposal = await zh(() =>
        rules.proposeRule(caller, sessionId, {
          name: text(a.name, 100),
          ruleKey: text(a.ruleKey, 64),
          remark: text(a.remark, 4000),
          params: params.map((p) => ({ name: text(p?.name, 64), description: text(p?.description, 500) })),
        }),
      );
      proposedNow.add(proposal.proposalId);
      return proposal;
    },
  };
  const confirm: RuntimeTool = {
    name: RULE_CONFIRM_TOOL_NAME,
    displayName: "规则配置确认",
    description:
      "Save a rule proposed by configure_rule in an earlier reply, only after the user confirmed it in their latest message. Pass the proposal id shown to the user.",
    parameters: {
      type: "object",
      properties: { proposalId: { type: "string", description: "the proposal id from configure_rule" } },
      required: ["proposalId"],
    },
    async execute(args) {
      const id = (args as { proposalId?: unknown } | null)?.proposalId;
      if (typeof id !== "string" || !id.trim()) throw new Error(translate("ruleProposalMissing", "zh"));
      if (proposedNow.has(id.trim())) throw new Error(translate("ruleProposalSameReply", "zh"));
      return zh(() => rules.confirmRule(caller, sessionId, id.trim().slice(0, 64)));
    },
  };
  return [propose, confirm];
}
