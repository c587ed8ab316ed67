import type { ComponentType } from "react";
import { loadAllTexts, loadAreas, type OwnArea } from "../i18n";

/**
 * A route's page loaded on first visit, so the first screen does not wait for every feature's code.
 * It renders once its texts are there too: every area's, unless it names the few it needs beside
 * the first ones (sign-in and chat, see i18n/index.ts).
 */
export function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M, areas?: OwnArea[]) {
  return async () => {
    const [page] = await Promise.all([load(), areas ? loadAreas(...areas) : loadAllTexts()]);
    return { Component: page[name] as ComponentType };
  };
}
