import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { App as AntApp } from "antd";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { createMemoryRouter, RouterProvider } from "react-router";
import i18n from "../i18n";
import { NavigationGuard } from "./guards";
import { Layout } from "./layout";

const json = (body: unknown) =>
  new Response(JSON.stringify({ code: 200, msg: "", data: body }), { headers: { "content-type": "application/json" } });

/** A page that throws while rendering for as long as `broken` says so: a card fed odd data, say. */
let broken = true;
function Broken() {
  if (broken) throw new Error("odd data");
  return <div>page shown</div>;
}

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  broken = true;
  // React reports every caught error too; the page's own line is looked for below.
  consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) =>
      json(
        url.includes("getTenantInfo")
          ? { tenantId: null, domain: "", name: "Agentfair", logo: "", primaryColor: "#1677ff", backgroundColor: "#fff", recordFiling: "" }
          : { captchaEnabled: false, rpaHost: "", enterpriseTenant: "", recordFiling: [], bankTransferEnabled: false },
      ),
    ),
  );
});
afterEach(() => consoleError.mockRestore());

/** The app's shell around pages that need no sign-in: the guard, the layout and its pages, one standalone page. */
function start(path: string) {
  const open = { public: true };
  const router = createMemoryRouter(
    [
      {
        element: <NavigationGuard />,
        children: [
          { path: "standalone", element: <Broken />, handle: open },
          {
            element: <Layout />,
            children: [
              { path: "index", element: <div>index page</div>, handle: open },
              { path: "broken", element: <Broken />, handle: open },
            ],
          },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
  return router;
}

const logged = (path: string) => consoleError.mock.calls.some((c) => String(c[0]).includes(`Page ${path} failed to render`));

describe("a page that throws while rendering", () => {
  it("shows the message inside the layout, logs the error, and recovers when the user goes elsewhere", async () => {
    start("/broken");
    expect(await screen.findByText("页面出错了")).toBeTruthy();
    // The layout stays: its header with the navigation and the sign-in button.
    expect(screen.getByRole("menu")).toBeTruthy();
    expect(screen.getByRole("button", { name: /登\s*录/ })).toBeTruthy();
    expect(logged("/broken")).toBe(true);

    // The header's link to the marketplace (in the menu) leads to a page that renders.
    fireEvent.click(screen.getAllByRole("link", { name: "智能体广场" })[0]);
    expect(await screen.findByText("index page")).toBeTruthy();
    expect(screen.queryByText("页面出错了")).toBeNull();
  });

  it("renders the page again when the user retries", async () => {
    start("/broken");
    await screen.findByText("页面出错了");
    broken = false;
    fireEvent.click(screen.getByRole("button", { name: /重\s*试/ }));
    expect(await screen.findByText("page shown")).toBeTruthy();
  });

  it("says so in the language chosen, also on a page outside the layout", async () => {
    await act(() => i18n.changeLanguage("en"));
    const router = start("/standalone");
    expect(await screen.findByText("Something went wrong")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
    expect(logged("/standalone")).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Marketplace" }));
    expect(await screen.findByText("index page")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/index");
  });
});
