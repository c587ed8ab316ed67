/** i18next plural forms English needs beside the form Chinese has: `key_one` next to `key` ({{count}}). */
type Plurals = { [key: `${string}_one`]: string };
type Translation<T> = T extends string
  ? string
  : T extends readonly unknown[]
    ? { [K in keyof T]: Translation<T[K]> }
    : { [K in keyof T]: Translation<T[K]> } & Plurals;

/** Declares an area's dictionary: en must have exactly the keys of zh (and may add `_one` plural forms). */
export function defineArea<T extends Record<string, unknown>>(zh: T, en: Translation<T>) {
  return { zh, en };
}
