import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

/** scrypt's cost; a hash carries its own, so a stronger one later still verifies the older hashes. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}
// scrypt is memory-hard: N=2^15, r=8 costs 32 MiB per hash.
const PARAMS: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const maxmem = 64 * 1024 * 1024;

export async function hashPassword(password: string, cost: ScryptCost = PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, { ...cost, maxmem });
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split("$");
  if (kind !== "scrypt") return false;
  const expected = Buffer.from(hash, "base64");
  const key = await scrypt(password, Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem,
  });
  return timingSafeEqual(key, expected);
}

/** A hash to verify against when the user does not exist, so timing does not tell. */
export const DUMMY_HASH = await hashPassword(randomBytes(8).toString("hex"));
