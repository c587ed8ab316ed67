import { insight } from "./insight";
import { rpa } from "./rpa";
import { auth } from "./auth";
import { agents } from "./agents";
import { models } from "./models";
import { billing } from "./billing";
import { tenants } from "./tenants";
import { tools } from "./tools";
import { knowledge } from "./knowledge";
import { workflows } from "./workflows";
import { cards } from "./cards";
import { designer } from "./designer";
import { datatables } from "./datatables";
import { rules } from "./rules";
import { channels } from "./channels";
import { robots } from "./robots";
import { tasks } from "./tasks";

/** Every other area: loaded with any page but sign-in and chat, before it renders (../index.ts `loadAllTexts`). */
const areas = {
  insight,
  rpa,
  auth,
  agents,
  models,
  billing,
  tenants,
  tools,
  knowledge,
  workflows,
  cards,
  designer,
  datatables,
  rules,
  channels,
  robots,
  tasks,
};

type Areas = typeof areas;
export const zh = Object.fromEntries(Object.entries(areas).map(([k, v]) => [k, v.zh])) as {
  [K in keyof Areas]: Areas[K]["zh"];
};
export const en = Object.fromEntries(Object.entries(areas).map(([k, v]) => [k, v.en])) as {
  [K in keyof Areas]: Areas[K]["en"];
};
