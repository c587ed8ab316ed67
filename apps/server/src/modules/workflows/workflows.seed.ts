import type { WorkflowGraph } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { plugins, users, workflows, workflowVersions } from "../../db/schema/index.ts";
import { validateGraph } from "./validate.ts";

/** The demo workflow: start → code → condition → template (either branch) → aggregate → end; runs offline. */
export const DEMO_WORKFLOW_GRAPH: WorkflowGraph = {
  nodes: [
    {
      id: "start",
      type: "start",
      data: {
        title: "开始",
        inputs: [
          { name: "name", type: "string", required: true, description: "客户姓名" },
          { name: "amount", type: "number", required: true, description: "订单金额（元）" },
        ],
      },
      position: { x: 40, y: 200 },
    },
    {
      id: "score",
      type: "code",
      data: {
        title: "计算会员折扣",
        language: "javascript",
        code: `// main(params) 的返回值就是本节点的输出
function main(params) {
  const amount = Number(params.amount);
  const rate = amount >= 1000 ? 0.85 : amount >= 500 ? 0.9 : 1;
  return { rate, pay: Math.round(amount * rate * 100) / 100 };
}`,
        params: { amount: "{{start.amount}}" },
        outputs: [
          { name: "rate", type: "number" },
          { name: "pay", type: "number" },
        ],
      },
      position: { x: 300, y: 200 },
    },
    {
      id: "check",
      type: "condition",
      data: {
        title: "是否有折扣",
        cases: [{ id: "discount", logic: "and", conditions: [{ variable: "{{score.rate}}", operator: "lt", value: "1" }] }],
      },
      position: { x: 560, y: 200 },
    },
    {
      id: "offer",
      type: "template",
      data: { title: "折扣话术", template: "{{start.name}}您好，本单享受{{score.rate}}折扣，应付{{score.pay}}元。" },
      position: { x: 820, y: 120 },
    },
    {
      id: "plain",
      type: "template",
      data: { title: "原价话术", template: "{{start.name}}您好，本单应付{{score.pay}}元；满500元可享9折。" },
      position: { x: 820, y: 300 },
    },
    {
      id: "merge",
      type: "aggregate",
      data: { title: "合并分支", variables: ["{{offer.output}}", "{{plain.output}}"], mode: "first" },
      position: { x: 1080, y: 200 },
    },
    {
      id: "end",
      type: "end",
      data: { title: "结束", outputs: { message: "{{merge.output}}", pay: "{{score.pay}}" } },
      position: { x: 1340, y: 200 },
    },
  ],
  edges: [
    { id: "e1", source: "start", target: "score" },
    { id: "e2", source: "score", target: "check" },
    { id: "e3", source: "check", target: "offer", sourceHandle: "discount" },
    { id: "e4", source: "check", target: "plain", sourceHandle: "else" },
    { id: "e5", source: "offer", target: "merge" },
    { id: "e6", source: "plain", target: "merge" },
    { id: "e7", source: "merge", target: "end" },
  ],
};

/** Demo seed: the member's released discount workflow (a WORKFLOW tool in the tools list). */
export async function seedWorkflows(db: Db, ctx: { users: Record<string, string> }) {
  const ownerId = ctx.users.member;
  if (!ownerId) return;
  const [owner] = await db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, ownerId));
  const graph = validateGraph(DEMO_WORKFLOW_GRAPH);
  const [row] = await db
    .insert(plugins)
    .values({
      tenantId: owner.tenantId,
      ownerId,
      pluginName: "订单折扣助手",
      pluginDescription: "按订单金额计算会员折扣，并生成给客户的付款话术",
      pluginIcon: "5",
      pluginIconBackground: "#fff3e8",
      pluginType: "WORKFLOW",
      pluginStatus: "C90_Released",
      pluginCallableName: "order_discount",
      pluginTags: ["营销"],
      definition: {
        parameters: [],
        headers: [],
        body: [],
        pathVariables: [],
        url: "",
        method: "GET",
        contentType: "json",
        rawBody: "",
        code: "",
        netEnabled: false,
        netAllowHosts: [],
        auth: { type: "none", in: "header", name: "" },
        mcp: null,
      },
    })
    .returning();
  await db.insert(workflows).values({ id: row.id, draft: graph, releasedVersion: 1 });
  await db.insert(workflowVersions).values({ workflowId: row.id, version: 1, graph });
}
