import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users, walletLedger } from "../db/schema/index.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { seedDemo } from "./demo.ts";

describe("demo data", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("every demo balance has its ledger rows: the member's opening balance went through the wallet", async () => {
    expect(await seedDemo(t.platform.db, t.services.tenants)).toBe(true);
    const all = await t.platform.db.select().from(users);
    for (const user of all) {
      const ledger = await t.platform.db.select().from(walletLedger).where(eq(walletLedger.userId, user.id));
      expect(
        ledger.reduce((sum, row) => sum + row.amountCents, 0),
        user.username,
      ).toBe(user.balanceCents);
    }
    const member = all.find((u) => u.username === "member");
    expect(member?.balanceCents).toBe(10000);
    // acme's administrator has members to manage: one active, one stopped.
    const acme = all.find((u) => u.username === "acme");
    const acmeMembers = all.filter((u) => u.tenantId === acme?.tenantId && u.tenantRole !== "admin");
    expect(acmeMembers.map((u) => [u.username, u.disabledAt !== null])).toEqual(
      expect.arrayContaining([
        ["acme_li", false],
        ["acme_wang", true],
      ]),
    );
  });
});
