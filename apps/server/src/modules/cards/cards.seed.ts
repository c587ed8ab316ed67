import { type CardTemplateConfig, defaultKnowledgeSettings, emptyBindings, pluginInput } from "@agentfair/contracts";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { cardBindings, cardTemplates, plugins, users } from "../../db/schema/index.ts";
import type { DemoSeed } from "../../seed/demo-seed.ts";
import { defaultConfig } from "../agents/agents.mappers.ts";
import { insertReleasedAgent } from "../agents/agents.seed.ts";
import { definitionOf, hashOf } from "../tools/tools.service.ts";

/** A weather forecast that works offline: five days from today, the same every time for a city. */
export const DEMO_WEATHER_PLUGIN = pluginInput.parse({
  pluginName: "天气预报",
  pluginDescription: "查询城市未来5天的天气预报（离线演示数据，同一城市结果固定）",
  pluginIcon: "2",
  pluginIconBackground: "#e8f3ff",
  pluginType: "JAVASCRIPT",
  pluginCallableName: "weather_forecast",
  pluginTags: ["政务"],
  parameters: [{ name: "city", type: "text-input", required: true, description: "城市名，如 北京、上海" }],
  code: `// 离线演示：按城市名生成固定的5天预报
const KINDS = ["晴", "多云", "阴", "小雨", "雷阵雨", "晴转多云", "中雪", "大风"];
function main(params) {
  const city = String(params.city || "北京").trim();
  let seed = 0;
  for (const ch of city) seed = (seed * 31 + ch.charCodeAt(0)) % 9973;
  const base = 8 + (seed % 20);
  const today = new Date();
  const forecast = [];
  for (let i = 0; i < 5; i++) {
    const d = new Date(today.getTime() + i * 86400000);
    const date = d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0");
    const weather = KINDS[(seed + i * 3) % KINDS.length];
    const min = base - 4 + ((seed + i) % 5);
    forecast.push({ date, weather, min, max: min + 5 + ((seed + i * 7) % 6) });
  }
  return { city, forecast };
}`,
});

/** Train tickets that work offline: a few trains between two cities, fixed for the pair. */
export const DEMO_TRAIN_PLUGIN = pluginInput.parse({
  pluginName: "火车票查询",
  pluginDescription: "查询两个城市之间的高铁车次、时间和余票（离线演示数据）",
  pluginIcon: "50",
  pluginIconBackground: "#fff7e8",
  pluginType: "JAVASCRIPT",
  pluginCallableName: "train_tickets",
  pluginTags: ["政务"],
  parameters: [
    { name: "from", type: "text-input", required: true, description: "出发城市，如 北京" },
    { name: "to", type: "text-input", required: true, description: "到达城市，如 上海" },
    { name: "date", type: "text-input", description: "出发日期 YYYY-MM-DD，默认明天" },
  ],
  code: `// 离线演示：常见城市的主要车站，其他城市按“城市+站”给出
const MAIN = { 北京: "北京南", 上海: "上海虹桥", 广州: "广州南", 深圳: "深圳北", 杭州: "杭州东", 南京: "南京南",
  武汉: "武汉", 成都: "成都东", 西安: "西安北", 重庆: "重庆北", 天津: "天津西", 长沙: "长沙南", 郑州: "郑州东", 济南: "济南西" };
const pad = (n) => String(n).padStart(2, "0");
const hm = (m) => pad(Math.floor(m / 60) % 24) + ":" + pad(m % 60);
function main(params) {
  const from = String(params.from || "北京").replace(/站$/, "");
  const to = String(params.to || "上海").replace(/站$/, "");
  let date = String(params.date || "");
  if (!/^\\d{4}-\\d{2}-\\d{2}$/.test(date)) {
    const d = new Date(Date.now() + 86400000);
    date = d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate());
  }
  let seed = 0;
  for (const ch of from + to) seed = (seed * 17 + ch.charCodeAt(0)) % 7919;
  const minutes = 120 + (seed % 300);
  const tickets = [];
  for (let i = 0; i < 3; i++) {
    const start = 7 * 60 + i * 150 + (seed % 50);
    tickets.push({
      no: "G" + (100 + ((seed + i * 37) % 900)),
      from: MAIN[from] || from + "站",
      to: MAIN[to] || to + "站",
      date,
      start: hm(start),
      end: hm(start + minutes),
      duration: Math.round((minutes / 60) * 10) / 10,
      firstClass: (seed + i) % 4 === 0 ? null : 1 + ((seed * (i + 1)) % 29),
      secondClass: (seed * (i + 3)) % 200,
    });
  }
  return { from, to, date, tickets };
}`,
});

export const DEMO_WEATHER_CARD: CardTemplateConfig = {
  type: "weather-card",
  list: true,
  dataPath: "forecast",
  options: { date: "date", min: "min", max: "max", weather: "weather" },
  buttons: [],
};

export const DEMO_TRAIN_CARD: CardTemplateConfig = {
  type: "train-tickets",
  list: true,
  dataPath: "tickets",
  options: {},
  buttons: [{ label: "换个日期" }, { label: "查询返程" }],
};

/** Demo: the member's two offline plugins, each bound to its card, and a released travel agent that uses them. */
export const seedCards: DemoSeed = async (db: Db, ctx) => {
  const memberId = ctx.users.member;
  if (!memberId) return;
  const [member] = await db.select().from(users).where(eq(users.id, memberId));
  const pluginIds: string[] = [];
  for (const [p, card, sample] of [
    [DEMO_WEATHER_PLUGIN, DEMO_WEATHER_CARD, { city: "北京", forecast: [{ date: "2026-06-01", weather: "晴", min: 18, max: 29 }] }],
    [
      DEMO_TRAIN_PLUGIN,
      DEMO_TRAIN_CARD,
      {
        tickets: [
          {
            no: "G1",
            from: "北京南",
            to: "上海虹桥",
            date: "2026-06-01",
            start: "07:00",
            end: "11:29",
            duration: 4.5,
            firstClass: 12,
            secondClass: 86,
          },
        ],
      },
    ],
  ] as const) {
    const definition = definitionOf(p);
    const row = { pluginType: "JAVASCRIPT", definition, authSecretEnc: null };
    const [plugin] = await db
      .insert(plugins)
      .values({
        tenantId: member.tenantId,
        ownerId: member.id,
        pluginName: p.pluginName,
        pluginDescription: p.pluginDescription,
        pluginIcon: p.pluginIcon,
        pluginIconBackground: p.pluginIconBackground,
        pluginCallableName: p.pluginCallableName,
        pluginTags: p.pluginTags,
        ...row,
        pluginStatus: "C90_Released",
        testedHash: hashOf(row),
      })
      .returning();
    const [template] = await db
      .insert(cardTemplates)
      .values({ tenantId: member.tenantId, ownerId: member.id, name: `${p.pluginName}卡片`, group: "出行", config: card, sample })
      .returning();
    await db.insert(cardBindings).values({ pluginId: plugin.id, cardId: template.id });
    pluginIds.push(plugin.id);
  }

  const name = "出行小助手";
  const desc = "查天气、查火车票，结果以天气卡片和车票卡片展示。";
  const config = {
    ...defaultConfig(),
    persona: "你是出行助手。用户问天气时调用 weather_forecast，问火车票时调用 train_tickets，再用一两句话总结结果。",
    usageGuide: "问某个城市的天气，或两个城市之间的火车票。",
    chatOption: {
      ...defaultConfig().chatOption,
      prologue: "你好，我是出行小助手，可以帮你查天气和火车票。",
      presetQuestions: ["北京未来几天天气怎么样？", "明天从上海到杭州的高铁"],
    },
    bindings: { ...emptyBindings(), plugins: pluginIds },
    knowledge: defaultKnowledgeSettings(),
    launchTags: ["general" as const],
  };
  const card = { agentName: name, agentDescription: desc, agentIcon: "7", agentIconBackground: "#e8fffb" };
  await insertReleasedAgent(db, member, card, config);
};
