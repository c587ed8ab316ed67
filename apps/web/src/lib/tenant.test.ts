import { afterEach, describe, expect, it } from "vitest";
import i18n from "../i18n";
import { routerBase, settleTenant, tenantCandidate, tenantDomain, tenantDisplayName, tenantTokens } from "./tenant";

const seeded = { tenantId: null, name: "Agentfair 智能体平台" };

describe("tenantDisplayName", () => {
  afterEach(() => i18n.changeLanguage("zh"));

  it("shows the seeded default tenant name in the interface language", async () => {
    await i18n.changeLanguage("en");
    expect(tenantDisplayName(seeded, i18n.t)).toBe("Agentfair Agent Platform");
    await i18n.changeLanguage("zh");
    expect(tenantDisplayName(seeded, i18n.t)).toBe("Agentfair 智能体平台");
  });

  it("keeps a tenant's own name, and a renamed default tenant, in every language", async () => {
    await i18n.changeLanguage("en");
    expect(tenantDisplayName({ tenantId: "t1", name: "Acme 智能科技" }, i18n.t)).toBe("Acme 智能科技");
    expect(tenantDisplayName({ tenantId: null, name: "某某集团" }, i18n.t)).toBe("某某集团");
    expect(tenantDisplayName(undefined, i18n.t)).toBe("Agentfair Agent Platform");
  });
});

describe("tenantTokens", () => {
  it("gives buttons and links the tenant's colour, the platform's blue without one", () => {
    expect(tenantTokens({ primaryColor: "#d4380d" })).toEqual({ colorPrimary: "#d4380d", colorLink: "#d4380d" });
    expect(tenantTokens({ primaryColor: "" })).toEqual({ colorPrimary: "#1677ff", colorLink: "#1677ff" });
    expect(tenantTokens(undefined)).toEqual({ colorPrimary: "#1677ff", colorLink: "#1677ff" });
  });
});

describe("the route base", () => {
  afterEach(() => window.history.pushState({}, "", "/"));
  const at = (path: string) => window.history.pushState({}, "", path);

  it("takes a first segment the server knows as a tenant for the base", async () => {
    at("/acme/login");
    const asked: string[] = [];
    expect(await settleTenant(async (d) => asked.push(d) > 0)).toBe("acme");
    expect(asked).toEqual(["acme"]);
    expect(tenantDomain()).toBe("acme");
    expect(routerBase()).toBe("/acme");
  });

  it("keeps an unknown first segment (a typo such as /indx) in the default tenant", async () => {
    at("/indx");
    expect(tenantCandidate()).toBe("indx");
    expect(await settleTenant(async () => false)).toBe("");
    expect(tenantDomain()).toBe("");
    expect(routerBase()).toBe("/");
  });

  it("never asks about the app's own paths", async () => {
    for (const path of ["/", "/login", "/index", "/agent-execute", "/admin/tenants"]) {
      at(path);
      expect(await settleTenant(async () => expect.fail(`asked about ${path}`))).toBe("");
    }
    at("/%E0%A4%A");
    expect(tenantCandidate()).toBe("");
  });
});
