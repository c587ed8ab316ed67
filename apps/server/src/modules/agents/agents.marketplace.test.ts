import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../../test/factories.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { agentSteps } from "./agents.fixtures.ts";
import { nameGrams } from "./agents.repository.ts";

let t: TestApp;
let s: ReturnType<typeof agentSteps>;
let owner: TestUser;
let hirer: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  s = agentSteps(t);
  owner = await createUser(t, { memberLevel: "PER_FLAGSHIP_MONTHLY" });
  hirer = await createUser(t);
  admin = await createUser(t, { username: "admin" });
});
afterAll(async () => {
  await t.close();
});

const names = async (name: string) => (await s.market(hirer, { name })).list.map((c: { agentName: string }) => c.agentName).sort();

describe("marketplace search and totals at scale (issue 19)", () => {
  it("name search finds every substring, one character, Chinese pairs and longer, case-insensitively", async () => {
    for (const name of ["智能客服Pro", "客服助手", "法律顾问", "100%准确"]) await s.listed(owner, admin, { name });
    expect(await names("客")).toEqual(["客服助手", "智能客服Pro"]);
    expect(await names("客服")).toEqual(["客服助手", "智能客服Pro"]);
    expect(await names("能客服p")).toEqual(["智能客服Pro"]);
    expect(await names("PRO")).toEqual(["智能客服Pro"]);
    expect(await names("服助")).toEqual(["客服助手"]);
    expect(await names("客助")).toEqual([]);
    expect(await names("%")).toEqual(["100%准确"]);
    expect(await names("0%准")).toEqual(["100%准确"]);
    expect(await names("_")).toEqual([]);
  });

  it("the unfiltered total follows listing, taking down, putting back and deleting", async () => {
    const total = async () => (await s.market(hirer)).total;
    const before = await total();
    const id = await s.listed(owner, admin, { name: "计数助手" });
    expect(await total()).toBe(before + 1);
    const shelf = `/agent_api/api/agent/launchVersionDisabled/${id}`;
    expect((await s.call(owner, "PUT", shelf, { disabled: true })).statusCode).toBe(200);
    expect(await total()).toBe(before);
    expect((await s.call(admin, "PUT", shelf, { disabled: false })).statusCode).toBe(200);
    expect(await total()).toBe(before + 1);
    expect((await s.market(hirer)).list.length).toBe(before + 1);
    expect((await s.call(owner, "DELETE", `/agent_api/api/agent/${id}`)).statusCode).toBe(200);
    expect(await total()).toBe(before);
  });

  it("the grams a name must hold", () => {
    expect(nameGrams("客")).toEqual(["客"]);
    expect(nameGrams("客服a")).toEqual(["客服", "服a"]);
    expect(nameGrams("AAA")).toEqual(["aa"]);
    expect(nameGrams("")).toEqual([]);
  });
});
