import type { RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { APP_SEGMENTS } from "../lib/tenant";
import { appRoutes } from "./router";

/** The first path segment of every route: a route's children are under its own path. */
function firstSegments(routes: RouteObject[]): string[] {
  return routes.flatMap((r) => (r.path === undefined ? firstSegments(r.children ?? []) : [r.path.split("/")[0]]));
}

describe("the app's own paths", () => {
  it("lists every top-level route in APP_SEGMENTS, so no page is asked about as a tenant", () => {
    const segments = firstSegments(appRoutes).filter((s) => s !== "*");
    expect(segments).toEqual(expect.arrayContaining(["login", "designer", "admin", "knowledge-list"]));
    expect(segments.filter((s) => !APP_SEGMENTS.has(s))).toEqual([]);
  });
});
