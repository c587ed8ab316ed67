import { cleanup } from "@testing-library/react";
import { theme } from "antd";
import { afterEach, vi } from "vitest";
import i18n, { loadAllTexts } from "../i18n";

// antd's components without their generated styles, as in the app (zeroRuntime, app/app.tsx), also when
// a test renders them without the app's ConfigProvider: the default theme every provider starts from.
// Generating and inserting the styles into jsdom was about six sevenths of these tests' time.
Object.assign(theme.defaultConfig, { zeroRuntime: true });

// antd reads matchMedia, which jsdom lacks.
Object.defineProperty(window, "matchMedia", {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});

// antd measures itself (Typography, dropdowns, tables); jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// Pages rendered without the router get every area's texts, as lib/lazy-page.ts gives them in the app.
await loadAllTexts();

// Files share one environment (isolate: false, vitest.config.ts): what a test leaves in the
// document (rendered nodes, cookies, storage), its stubs or the language must not reach the next file's tests.
afterEach(async () => {
  cleanup();
  for (const cookie of document.cookie.split("; ").filter(Boolean)) {
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom's document, cleared between tests
    document.cookie = `${cookie.split("=")[0]}=; path=/; max-age=0`;
  }
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  if (i18n.language !== "zh") await i18n.changeLanguage("zh");
});
