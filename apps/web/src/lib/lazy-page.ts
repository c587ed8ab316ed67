import type { ComponentType } from "react";

/** A route's page loaded on first visit, so the first screen does not wait for every feature's code. */
export function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M) {
  return async () => ({ Component: (await load())[name] as ComponentType });
}
