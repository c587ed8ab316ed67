import * as first from "./first";
import * as rest from "./rest";

/**
 * One file per area, each holding its zh and en side by side, so a missing translation is a
 * type error. Areas add themselves to first.ts (needed by the first screens: shell, sign-in, chat)
 * or rest.ts (every other page).
 */
export const zh = { ...first.zh, ...rest.zh };
export const en = { ...first.en, ...rest.en };
