import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderInApp } from "../../../test/render";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { App as AntApp } from "antd";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../../i18n";
import { clearSession, setTokens } from "../../../lib/storage";
import { cardsKey } from "../api/cards";
import { CardBindingSelect } from "../components/card-binding-select";
import { CardsPage } from "./cards-page";

const requests: { url: string; method: string; body?: unknown }[] = [];
let binding: string | null = null;
let listed: unknown[] = [];
const card = {
  id: "c1",
  name: "天气卡片",
  group: "",
  config: { type: "weather-card", list: true, dataPath: "forecast", options: {}, buttons: [] },
  sample: { forecast: [{ date: "2026-06-01", weather: "晴", min: 1, max: 9 }] },
  pluginIds: [],
  createdTime: "2026-06-01T00:00:00Z",
  updatedTime: "2026-06-01T00:00:00Z",
};

beforeEach(async () => {
  await i18n.changeLanguage("zh");
  setTokens({ token: "t", reportToken: "r" });
  requests.length = 0;
  binding = null;
  listed = [card];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      requests.push({ url: String(url), method, body });
      let data: unknown = listed;
      if (String(url).includes("/cards/binding/")) {
        if (method === "PUT") binding = (body as { cardId: string | null }).cardId;
        data = { pluginId: "p1", cardId: binding };
      } else if (method === "POST") data = { ...card, id: "c2", ...(body as object) };
      return new Response(JSON.stringify({ code: 200, msg: "", data }), { status: 200, headers: { "content-type": "application/json" } });
    }),
  );
});
afterEach(() => {
  clearSession();
});

describe("the card editor", { timeout: 30_000 }, () => {
  it("needs a name and a component, previews live from the sample, and saves the template", async () => {
    renderInApp(<CardsPage />);
    expect(await screen.findByText("天气卡片", { selector: ".ant-typography strong, strong" })).toBeTruthy();
    const page = screen.getByTestId("cards-page");
    expect(within(screen.getByTestId("card-preview")).getByText("卡片编辑至少需要一个组件")).toBeTruthy();
    fireEvent.change(screen.getByTestId("card-name"), { target: { value: "新卡片" } });
    fireEvent.click(screen.getByTestId("card-save"));
    expect(await screen.findAllByText("卡片编辑至少需要一个组件")).toHaveLength(3);

    fireEvent.click(page.querySelector('[data-card-type="image-text-button"]')!);
    const preview = screen.getByTestId("card-preview");
    expect(within(preview).getByTestId("image-text-card").textContent).toContain("西湖十景");
    // The mapping changes the preview at once: no title in designer mode is 暂无数据.
    fireEvent.change(screen.getByTestId("card-field-title"), { target: { value: "nowhere" } });
    expect(within(preview).getByTestId("image-text-card").textContent).toContain("暂无数据");
    fireEvent.change(screen.getByTestId("card-field-title"), { target: { value: "" } });
    // A list card whose data path holds no list is refused.
    fireEvent.click(within(page).getByTestId("card-list"));
    expect(within(preview).getByText("多卡片需要列表结构的数据源")).toBeTruthy();
    fireEvent.click(within(page).getByText("单卡片"));
    await act(async () => {
      fireEvent.click(screen.getByTestId("card-save"));
    });
    const saved = requests.find((r) => r.method === "POST");
    expect(saved?.url).toMatch(/\/aiagent_api\/cards$/);
    expect(saved?.body).toMatchObject({
      name: "新卡片",
      config: { type: "image-text-button", list: false, dataPath: "", options: { title: "" } },
      sample: { title: "西湖十景" },
    });
  });
});

const value = (testId: string) => (screen.getByTestId(testId) as HTMLInputElement).value;
const showAt = (url: string) => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <AntApp>
          <CardsPage />
        </AntApp>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return client;
};

describe("the card editor's draft", { timeout: 30_000 }, () => {
  it("keeps a new card being edited when the template list is fetched again", async () => {
    const client = showAt("/cards?id=c1");
    await screen.findByDisplayValue("天气卡片");
    fireEvent.click(screen.getByTestId("card-new"));
    expect(value("card-name")).toBe("");
    fireEvent.click(screen.getByTestId("cards-page").querySelector('[data-card-type="image-text-button"]')!);
    fireEvent.change(screen.getByTestId("card-name"), { target: { value: "图文" } });

    listed = [{ ...card, name: "天气卡片（改）" }];
    await act(() => client.invalidateQueries({ queryKey: cardsKey }));
    await screen.findByText("天气卡片（改）");
    expect(value("card-name")).toBe("图文");
    expect(within(screen.getByTestId("card-preview")).getByTestId("image-text-card").textContent).toContain("西湖十景");
  });

  it("loads the template chosen in the list, and starts empty for one that is gone", async () => {
    showAt("/cards?id=gone");
    const item = await screen.findByTestId("card-template-item");
    expect(value("card-name")).toBe("");
    fireEvent.click(item);
    await screen.findByDisplayValue("天气卡片");
    expect(value("card-data-path")).toBe("forecast");
  });
});

describe("the plugin editor's card selector", { timeout: 30_000 }, () => {
  it("says 请先绑定卡片 before a card is bound, binds one, and previews it", async () => {
    renderInApp(<CardBindingSelect pluginId="p1" />);
    const box = await screen.findByTestId("card-binding");
    await act(async () => {
      fireEvent.click(within(box).getByTestId("card-binding-preview"));
    });
    expect(await screen.findByText("请先绑定卡片")).toBeTruthy();
    fireEvent.mouseDown(within(box).getByRole("combobox"));
    await act(async () => {
      fireEvent.click(await screen.findByTitle("天气卡片 · 天气卡片"));
    });
    expect(requests.find((r) => r.method === "PUT")).toMatchObject({
      url: expect.stringMatching(/\/cards\/binding\/p1$/),
      body: { cardId: "c1" },
    });
    expect(await screen.findByText("已绑定卡片")).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(box).getByTestId("card-binding-preview"));
    });
    expect((await screen.findByTestId("weather-first")).textContent).toContain("1 ~ 9°C");
  });
});
