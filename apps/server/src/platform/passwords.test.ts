import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./passwords.ts";

describe("password hashes", () => {
  it("are scrypt at N=2^15 with a fresh salt, and verify only the right password", async () => {
    const [a, b] = await Promise.all([hashPassword("correct horse"), hashPassword("correct horse")]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("correct horse ", a)).toBe(false);
  });

  it("carry their cost: a hash made at another cost still verifies", async () => {
    const cheap = await hashPassword("pw", { N: 2 ** 10, r: 8, p: 1 });
    expect(cheap.startsWith("scrypt$1024$8$1$")).toBe(true);
    expect(await verifyPassword("pw", cheap)).toBe(true);
    expect(await verifyPassword("pw2", cheap)).toBe(false);
    expect(await verifyPassword("pw", "bcrypt$whatever")).toBe(false);
  });
});
