import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { App as AntApp } from "antd";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router";

/** Renders `node` inside what the app puts around a page: a query client (no retries), a router and antd's App. */
export function renderInApp(node: ReactNode) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <AntApp>{node}</AntApp>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
