import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import { storage } from "../lib/storage";

type Texts = Record<string, unknown>;

/**
 * Each language's texts are scripts of their own (vite.config.ts `oneLanguage` keeps one side of
 * every area in each): `first` (the shell and chat areas) before the first render; `rest` (every
 * other area) with the first page that needs it (`loadAllTexts`, awaited by lib/lazy-page.ts); the
 * sign-in pages, the chat's live panels and insight steps add their own area (`loadAreas`). So the
 * chat page loads neither the other areas nor the other language. en comes
 * with zh, its fallback, which some pages also read directly (default Chinese names compared with
 * `{ lng: "zh" }`). Switching loads the other language before it is shown.
 */
const first: Record<string, () => Promise<Texts>> = {
  zh: () => import("./locales/first?lang=zh").then((m) => m.zh),
  en: () => import("./locales/first?lang=en").then((m) => m.en),
};
const rest: Record<string, () => Promise<Texts>> = {
  zh: () => import("./locales/rest?lang=zh").then((m) => m.zh),
  en: () => import("./locales/rest?lang=en").then((m) => m.en),
};

/** Areas a first screen loads on its own, with the code that shows them (`loadAreas`). */
const own: Record<string, Record<string, () => Promise<Texts>>> = {
  auth: {
    zh: () => import("./locales/auth?lang=zh").then((m) => ({ auth: m.auth.zh })),
    en: () => import("./locales/auth?lang=en").then((m) => ({ auth: m.auth.en })),
  },
  rpa: {
    zh: () => import("./locales/rpa?lang=zh").then((m) => ({ rpa: m.rpa.zh })),
    en: () => import("./locales/rpa?lang=en").then((m) => ({ rpa: m.rpa.en })),
  },
  insight: {
    zh: () => import("./locales/insight?lang=zh").then((m) => ({ insight: m.insight.zh })),
    en: () => import("./locales/insight?lang=en").then((m) => ({ insight: m.insight.en })),
  },
};
export type OwnArea = keyof typeof own;

/** Set once a page needed every area: a language switched to later loads them all at once. */
let everything = false;
/** Areas asked for on their own: a language switched to later loads them too. */
const asked = new Set<string>();
/** What has been added (or is being added) per language and part ("rest" or an area). */
const added = new Map<string, Promise<void>>();

const byLanguage: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    if (!first[language]) return callback(new Error(`no texts for ${language}`), false);
    const parts = everything ? ["rest"] : [...asked];
    Promise.all([first[language](), ...parts.map((part) => (part === "rest" ? rest : own[part])[language]())]).then(
      (texts) => {
        for (const part of parts) added.set(`${language}:${part}`, Promise.resolve());
        callback(null, Object.assign({}, ...texts));
      },
      (err: Error) => callback(err, false),
    );
  },
};

/** Adds a part's texts ("rest" or an area) in the language shown and its fallback, once each. */
function add(part: string, load: Record<string, () => Promise<Texts>>): Promise<void> {
  const languages = [...new Set([i18n.resolvedLanguage ?? i18n.language, ...i18n.languages])].filter((l) => load[l]);
  return Promise.all(
    languages.map((language) => {
      const key = `${language}:${part}`;
      let adding = added.get(key);
      if (!adding) {
        adding = load[language]().then((texts) => {
          i18n.addResourceBundle(language, "translation", texts, true, false);
        });
        adding.catch(() => added.delete(key));
        added.set(key, adding);
      }
      return adding;
    }),
  ).then(() => undefined);
}

/**
 * Every area's texts: resolved before a page outside sign-in and chat renders (lib/lazy-page.ts),
 * so no text is ever shown missing.
 */
export function loadAllTexts(): Promise<void> {
  everything = true;
  return add("rest", rest);
}

/** One area's texts, for code of a first screen that loads with them (sign-in, live panels, insight steps). */
export function loadAreas(...areas: OwnArea[]): Promise<void> {
  if (everything) return loadAllTexts();
  for (const area of areas) asked.add(area);
  return Promise.all(areas.map((area) => add(area, own[area]))).then(() => undefined);
}

/** zh is the default; the choice is kept in local config. */
await i18n
  .use(byLanguage)
  .use(initReactI18next)
  .init({
    lng: typeof localStorage === "undefined" ? "zh" : storage.lang(),
    supportedLngs: ["zh", "en"],
    fallbackLng: "zh",
    load: "currentOnly",
    interpolation: { escapeValue: false },
  });

export default i18n;
