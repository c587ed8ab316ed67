import { describe, expect, it } from "vitest";
import {
  agentSnapshot,
  defaultModelSettings,
  defaultOrchestration,
  diffSnapshots,
  duplicateVariableName,
  emptyBindings,
  renameError,
  utf8Bytes,
} from "./agents.ts";
import { defaultKnowledgeSettings } from "./knowledge.ts";

const base = agentSnapshot.parse({
  agentName: "助手",
  agentDescription: "",
  agentIcon: "1",
  agentIconBackground: "#e8f3ff",
  price: 0,
  persona: "p",
  model: defaultModelSettings(),
  usageGuide: "",
  chatOption: { prologue: "", presetQuestions: [], enableFastConfigRuleOnChat: false, enableChatInsight: false, chatInsightFeatures: [] },
  variables: [],
  bindings: emptyBindings(),
  example: "",
  launchTags: [],
  labelId: null,
});

describe("agent rules", () => {
  it("renames with the spec's two rules", () => {
    expect(renameError("  ")).toBe("blank");
    expect(renameError("一二三四五六七八九十一二三四五")).toBeNull();
    expect(renameError("一二三四五六七八九十一二三四五六")).toBe("tooLong");
  });
  it("counts persona bytes in UTF-8 and finds duplicate variable names", () => {
    expect(utf8Bytes("汉a")).toBe(4);
    expect(duplicateVariableName([{ name: "a" }, { name: "b" }])).toBeNull();
    expect(duplicateVariableName([{ name: "a" }, { name: " a" }])).toBe("a");
  });
  it("diffs two versions field by field", () => {
    expect(diffSnapshots(base, base)).toEqual([]);
    const next = { ...base, persona: "q", chatOption: { ...base.chatOption, presetQuestions: ["x"] } };
    expect(diffSnapshots(base, next)).toEqual([
      { field: "persona", before: "p", after: "q" },
      { field: "chatOption.presetQuestions", before: "", after: "x" },
    ]);
    // Settings and bindings beyond the prompt: retrieval, orchestration, external tools.
    const rebound = {
      ...base,
      bindings: { ...base.bindings, externalPlugins: ["ext-1"] },
      knowledge: { topK: 8, vectorWeight: 0.5, threshold: 0.3, directAnswer: true, directThreshold: 0.9 },
      orchestration: { mode: "multi" as const, multiMode: "scheduling" as const, agents: ["a-2"], workflowId: null },
    };
    const fields = diffSnapshots(base, rebound).map((d) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        "bindings.externalPlugins",
        "knowledge.topK",
        "knowledge.directAnswer",
        "orchestration.mode",
        "orchestration.agents",
      ]),
    );
    // An absent setting is its default: no difference where nothing changed.
    expect(diffSnapshots(base, { ...base, knowledge: defaultKnowledgeSettings(), orchestration: defaultOrchestration() })).toEqual([]);
  });
});
