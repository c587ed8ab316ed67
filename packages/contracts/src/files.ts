import { z } from "zod";

/** Icon uploads (doc 2 §5): png, jpeg, jpg, gif only; the content is sniffed too. */
export const ICON_EXTENSIONS = ["png", "jpeg", "jpg", "gif"] as const;
export const ICON_MAX_BYTES = 2 * 1024 * 1024;
/** Icon picker (doc 2 §9): 16 background presets and 55 built-in icons (numbers 1..55). */
export const ICON_BACKGROUNDS = [
  "#e8f3ff",
  "#e8fffb",
  "#fff7e8",
  "#ffece8",
  "#f5e8ff",
  "#ffe8f1",
  "#e8ffea",
  "#f2f3f5",
  "#165dff",
  "#14c9c9",
  "#ff7d00",
  "#f53f3f",
  "#722ed1",
  "#eb2f96",
  "#00b42a",
  "#4e5969",
] as const;
export const BUILTIN_ICON_COUNT = 55;
export const ICON_PAGE_SIZE = 20;

export const fileIdResponse = z.object({ id: z.string() });
export const iconListRequest = z.object({
  pageNumber: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(100).default(ICON_PAGE_SIZE),
});
export const iconItem = z.object({ id: z.string(), name: z.string(), url: z.string(), createdAt: z.string() });
export type IconItem = z.infer<typeof iconItem>;
export const iconPage = z.object({ content: z.array(iconItem), totalElements: z.number(), totalPages: z.number() });
export type IconPage = z.infer<typeof iconPage>;

/** Where an uploaded file is served (doc 1 §3). */
export const fileDataPath = (id: string) => `/agent_api/api/files/data/${id}`;
