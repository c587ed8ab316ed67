/** The locales in one language (vite.config.ts `oneLanguage`); the other language's side is empty. */
declare module "*/locales/index?lang=zh" {
  export const zh: typeof import("./index").zh;
}
declare module "*/locales/index?lang=en" {
  export const en: typeof import("./index").en;
}
