import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import { storage } from "../lib/storage";

/**
 * Each language's texts are a script of their own (vite.config.ts `oneLanguage` keeps one side of
 * every area in each): a page in zh, the default, loads zh only. en comes with zh, its fallback,
 * which some pages also read directly (default Chinese names compared with `{ lng: "zh" }`).
 * Switching loads the other language before it is shown.
 */
const dictionaries: Record<string, () => Promise<object>> = {
  zh: () => import("./locales/index?lang=zh").then((m) => m.zh),
  en: () => import("./locales/index?lang=en").then((m) => m.en),
};

const byLanguage: BackendModule = {
  type: "backend",
  init() {},
  read(language, _namespace, callback) {
    const load = dictionaries[language];
    if (!load) return callback(new Error(`no texts for ${language}`), false);
    load().then(
      (texts) => callback(null, texts),
      (err: Error) => callback(err, false),
    );
  },
};

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
