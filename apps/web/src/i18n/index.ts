import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { storage } from "../lib/storage";
import { en, zh } from "./locales";

/** zh is the default; the choice is kept in local config. */
i18n.use(initReactI18next).init({
  resources: { zh: { translation: zh }, en: { translation: en } },
  lng: typeof localStorage === "undefined" ? "zh" : storage.lang(),
  fallbackLng: "zh",
  interpolation: { escapeValue: false },
});

export default i18n;
