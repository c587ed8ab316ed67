import { common } from "./common";
import { http } from "./http";
import { chat } from "./chat";

/**
 * The areas every first screen needs: the shell and the chat page. Loaded before the first render;
 * the sign-in pages, the chat's live panels and insight steps load their own area (../index.ts `loadAreas`).
 */
const areas = {
  common,
  http,
  chat,
};

type Areas = typeof areas;
export const zh = Object.fromEntries(Object.entries(areas).map(([k, v]) => [k, v.zh])) as {
  [K in keyof Areas]: Areas[K]["zh"];
};
export const en = Object.fromEntries(Object.entries(areas).map(([k, v]) => [k, v.en])) as {
  [K in keyof Areas]: Areas[K]["en"];
};
