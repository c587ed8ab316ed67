import { renderInApp } from "../../../test/render";
import { settle, unhandledRejections } from "../../../test/unhandled";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../../i18n";
import { KnowledgeModal } from "./knowledge-modal";

const unhandled = unhandledRejections();
/** The bodies of the PUTs the modal sent. */
let saved: Record<string, unknown>[] = [];
beforeEach(async () => {
  await i18n.changeLanguage("zh");
  saved = [];
  // antd's Select measures its list; jsdom has no ResizeObserver.
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = String(url);
      let data: unknown = null;
      if (u.includes("/api/models/options")) {
        expect(u).toContain("type=EMBEDDING");
        data = [{ id: "m-bge", name: "BGE-M3", type: "EMBEDDING", isDefault: false }];
      } else if (init?.method === "PUT") {
        saved.push(JSON.parse(String(init.body)));
        data = { ...base, ...saved.at(-1) };
      }
      return new Response(JSON.stringify({ code: u.includes("wendao") ? 0 : 200, msg: "", data }), {
        status: 200,
        headers: { "content-type": "application/json" },
      });
    }),
  );
});

const base = {
  id: "kb1",
  name: "产品手册",
  visibility: "private",
  uri: "",
  embeddingModelId: null,
  createdTime: "2026-01-01T00:00:00.000Z",
  updatedTime: null,
  createdBy: "u1",
  createdByMe: true,
};

describe("the knowledge base modal's embedding model", { timeout: 30_000 }, () => {
  it("lists the embedding models, says a change re-embeds without re-parsing, and saves the choice", async () => {
    const onSaved = vi.fn();
    renderInApp(<KnowledgeModal open base={base} onClose={() => undefined} onSaved={onSaved} />);
    expect(await screen.findByText("向量模型")).toBeTruthy();
    expect(screen.queryByTestId("knowledge-reembed")).toBeNull();
    fireEvent.mouseDown(screen.getByRole("combobox", { name: "向量模型" }));
    fireEvent.click(await screen.findByTitle("BGE-M3"));
    expect(await screen.findByText(/无需重新解析文件/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /确\s*定/ }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(saved).toEqual([{ id: "kb1", name: "产品手册", embeddingModelId: "m-bge" }]);
  });
});

describe("creating a knowledge base with no name", { timeout: 30_000 }, () => {
  it("says the name is needed, sends nothing and leaves no unhandled rejection", async () => {
    const onSaved = vi.fn();
    renderInApp(<KnowledgeModal open base={null} onClose={() => undefined} onSaved={onSaved} />);
    fireEvent.click(await screen.findByRole("button", { name: /确\s*定/ }));
    expect(await screen.findAllByText("请输入名称", { selector: ".ant-form-item-explain-error" })).toHaveLength(1);
    await settle();
    expect(onSaved).not.toHaveBeenCalled();
    expect(unhandled).toEqual([]);
  });
});
