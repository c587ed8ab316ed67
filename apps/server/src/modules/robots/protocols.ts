import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The platforms' callback cryptography, as their documentation specifies it. Pure functions, so
 * the tests' local platform servers use the same code paths in reverse (encrypt, sign).
 */

export const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

// ---- WeCom (企业微信): msg_signature and the EncodingAESKey -------------------------------------

/** msg_signature = SHA1 of token, timestamp, nonce and the encrypted text, sorted and joined. */
export const wecomSignature = (token: string, timestamp: string, nonce: string, encrypted: string) =>
  createHash("sha1").update([token, timestamp, nonce, encrypted].sort().join("")).digest("hex");

/** The 43-character EncodingAESKey is the base64 of a 32-byte AES key (without its "="); the IV is its first 16 bytes. */
const wecomKey = (encodingAesKey: string) => {
  const key = Buffer.from(`${encodingAesKey}=`, "base64");
  if (key.length !== 32) throw new Error("bad EncodingAESKey");
  return key;
};

/** PKCS#7 over 32-byte blocks, as WeCom pads. */
function pkcs7Pad(buf: Buffer, block = 32) {
  const n = block - (buf.length % block);
  return Buffer.concat([buf, Buffer.alloc(n, n)]);
}
function pkcs7Unpad(buf: Buffer, block = 32) {
  const n = buf[buf.length - 1];
  if (!n || n > block || n > buf.length) throw new Error("bad padding");
  for (let i = buf.length - n; i < buf.length; i++) if (buf[i] !== n) throw new Error("bad padding");
  return buf.subarray(0, buf.length - n);
}

/** random(16) + length(4, big-endian) + message + receiveId, AES-256-CBC, base64. */
export function wecomEncrypt(encodingAesKey: string, receiveId: string, message: string) {
  const key = wecomKey(encodingAesKey);
  const msg = Buffer.from(message, "utf8");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(msg.length);
  const plain = pkcs7Pad(Buffer.concat([randomBytes(16), len, msg, Buffer.from(receiveId, "utf8")]));
  const cipher = createCipheriv("aes-256-cbc", key, key.subarray(0, 16));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(plain), cipher.final()]).toString("base64");
}

/** The message inside, when it decrypts, is well formed and was sent to `receiveId` (the corp id); else throws. */
export function wecomDecrypt(encodingAesKey: string, receiveId: string, encrypted: string) {
  const key = wecomKey(encodingAesKey);
  const decipher = createDecipheriv("aes-256-cbc", key, key.subarray(0, 16));
  decipher.setAutoPadding(false);
  const plain = pkcs7Unpad(Buffer.concat([decipher.update(Buffer.from(encrypted, "base64")), decipher.final()]));
  if (plain.length < 20) throw new Error("short message");
  const len = plain.readUInt32BE(16);
  if (20 + len > plain.length) throw new Error("bad length");
  const message = plain.subarray(20, 20 + len).toString("utf8");
  const to = plain.subarray(20 + len).toString("utf8");
  if (to !== receiveId) throw new Error("wrong receiver");
  return message;
}

/**
 * A tag's text in WeCom's flat XML (CDATA or plain), at its first occurrence; the messages have no
 * nesting we need. Read with plain scans, in time linear in the body: it runs before the signature
 * is checked, on whatever anyone posts (a regular expression with `\s*` on both sides of the text
 * took seconds for a few thousand spaces, and a 256 KB body held the process for good).
 */
export function xmlField(xml: string, tag: string): string | undefined {
  const open = `<${tag}>`;
  const start = xml.indexOf(open);
  if (start < 0) return undefined;
  const skipSpace = (i: number) => {
    while (i < xml.length && /\s/.test(xml[i])) i++;
    return i;
  };
  const i = skipSpace(start + open.length);
  let value: string;
  let end: number;
  if (xml.startsWith("<![CDATA[", i)) {
    const stop = xml.indexOf("]]>", i + 9);
    if (stop < 0) return undefined;
    value = xml.slice(i + 9, stop);
    end = skipSpace(stop + 3);
  } else {
    const stop = xml.indexOf("<", i);
    if (stop < 0) return undefined;
    value = xml.slice(i, stop);
    end = stop;
  }
  return xml.startsWith(`</${tag}>`, end) ? value : undefined;
}

// ---- Feishu (飞书): encrypt key and X-Lark-Signature --------------------------------------------

/** AES-256-CBC under SHA256(encrypt key); the base64 text is IV(16) + ciphertext, PKCS#7. */
export function feishuDecrypt(encryptKey: string, encrypted: string) {
  const key = createHash("sha256").update(encryptKey).digest();
  const buf = Buffer.from(encrypted, "base64");
  if (buf.length < 32) throw new Error("short message");
  const decipher = createDecipheriv("aes-256-cbc", key, buf.subarray(0, 16));
  return Buffer.concat([decipher.update(buf.subarray(16)), decipher.final()]).toString("utf8");
}

export function feishuEncrypt(encryptKey: string, plain: string) {
  const key = createHash("sha256").update(encryptKey).digest();
  const iv = randomBytes(16);
  const cipher = createCipheriv("aes-256-cbc", key, iv);
  return Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final()]).toString("base64");
}

/** X-Lark-Signature = hex SHA256(timestamp + nonce + encryptKey + raw body). */
export const feishuSignature = (timestamp: string, nonce: string, encryptKey: string, body: string) =>
  createHash("sha256")
    .update(timestamp + nonce + encryptKey + body)
    .digest("hex");

// ---- DingTalk (钉钉): the outgoing robot's signature --------------------------------------------

/** sign = base64 HmacSHA256(appSecret, timestamp + "\n" + appSecret); timestamp in milliseconds. */
export const dingtalkSignature = (appSecret: string, timestamp: string) =>
  createHmac("sha256", appSecret).update(`${timestamp}\n${appSecret}`).digest("base64");

/** DingTalk refuses callbacks more than an hour off; so do we. */
export const DINGTALK_MAX_SKEW_MS = 60 * 60 * 1000;

// ---- The generic webhook robot: our own HMAC ----------------------------------------------------

/** X-Agentfair-Signature = hex HmacSHA256(secret, timestamp + "." + body), both directions. */
export const webhookSignature = (secret: string, timestamp: string, body: string) =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");

/** Webhook callbacks older (or newer) than this are refused, so a captured one cannot be replayed later. */
export const WEBHOOK_MAX_SKEW_MS = 5 * 60 * 1000;
