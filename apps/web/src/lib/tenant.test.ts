import { afterEach, describe, expect, it } from "vitest";
import i18n from "../i18n";
import { tenantDisplayName } from "./tenant";

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
