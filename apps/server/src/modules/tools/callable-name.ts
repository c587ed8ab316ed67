import { CALLABLE_NAME } from "@agentfair/contracts";
import { pinyin } from "pinyin-pro";

/**
 * A callable name from a plugin's name (or, without one, its description): Chinese in pinyin
 * without tones, words joined by underscores, ASCII letters, digits and underscores only,
 * starting with a letter, at most 40 characters. Deterministic: the same text gives the same name.
 */
export function slugCallableName(text: string): string {
  const words = pinyin(text.slice(0, 200), { toneType: "none", type: "array", nonZh: "consecutive" })
    // ü (律 lǜ, 女 nǚ) is written v, as pinyin keyboards do; dropped it would leave "l", "n".
    .flatMap((w) => w.replace(/ü/g, "v").split(/[^A-Za-z0-9]+/))
    .map((w) => w.toLowerCase())
    .filter(Boolean);
  let slug = words.join("_").slice(0, 40).replace(/_+$/, "");
  if (!/^[a-z]/.test(slug)) slug = `tool_${slug}`.replace(/_+$/, "");
  return CALLABLE_NAME.test(slug) ? slug : "tool";
}

/** The first of name, name_2, name_3, ... not taken yet. */
export async function uniqueCallableName(base: string, taken: (name: string) => Promise<boolean>): Promise<string> {
  if (!(await taken(base))) return base;
  for (let i = 2; i < 1000; i++) {
    const candidate = `${base.slice(0, 60)}_${i}`;
    if (!(await taken(candidate))) return candidate;
  }
  return `${base.slice(0, 50)}_${Date.now().toString(36)}`;
}
