/** Declares an area's dictionary: en must have exactly the keys of zh. */
export function defineArea<T extends Record<string, unknown>>(zh: T, en: { [K in keyof T]: T[K] extends string ? string : T[K] }) {
  return { zh, en };
}
