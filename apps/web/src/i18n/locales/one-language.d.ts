/** The locales in one language (vite.config.ts `oneLanguage`); the other language's side is empty. */
declare module "*/locales/first?lang=zh" {
  export const zh: typeof import("./first").zh;
}
declare module "*/locales/first?lang=en" {
  export const en: typeof import("./first").en;
}
declare module "*/locales/rest?lang=zh" {
  export const zh: typeof import("./rest").zh;
}
declare module "*/locales/rest?lang=en" {
  export const en: typeof import("./rest").en;
}
/** Areas a first screen loads on its own (../index.ts `loadAreas`). */
declare module "*/locales/auth?lang=zh" {
  export const auth: typeof import("./auth").auth;
}
declare module "*/locales/auth?lang=en" {
  export const auth: typeof import("./auth").auth;
}
declare module "*/locales/rpa?lang=zh" {
  export const rpa: typeof import("./rpa").rpa;
}
declare module "*/locales/rpa?lang=en" {
  export const rpa: typeof import("./rpa").rpa;
}
declare module "*/locales/insight?lang=zh" {
  export const insight: typeof import("./insight").insight;
}
declare module "*/locales/insight?lang=en" {
  export const insight: typeof import("./insight").insight;
}
