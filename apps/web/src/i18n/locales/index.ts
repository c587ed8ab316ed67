import { common } from "./common";
import { auth } from "./auth";
import { http } from "./http";
import { agents } from "./agents";
import { chat } from "./chat";
import { models } from "./models";
import { billing } from "./billing";
import { tenants } from "./tenants";
import { tools } from "./tools";
import { knowledge } from "./knowledge";
import { workflows } from "./workflows";
import { designer } from "./designer";
import { cards } from "./cards";
import { datatables } from "./datatables";
import { rules } from "./rules";
import { rpa } from "./rpa";
import { channels } from "./channels";
import { insight } from "./insight";
import { robots } from "./robots";
import { tasks } from "./tasks";

/**
 * One file per area, each holding its zh and en side by side, so a missing translation is a
 * type error. Areas add themselves here.
 */
const areas = {
  common,
  http,
  auth,
  agents,
  chat,
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
  rpa,
  channels,
  insight,
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
