import { screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import i18n from "../../../i18n";
import { renderInApp } from "../../../test/render";
import { LoginPage } from "./login-page";
import { RegisterPage } from "./register-page";

let open = false;
beforeEach(async () => {
  await i18n.changeLanguage("zh");
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const data = String(url).includes("getTenantInfo") ? { tenantId: "t1", domain: "", name: "闭门科技", openRegistration: open } : null;
      return new Response(JSON.stringify({ code: 200, msg: "", data }), { status: 200, headers: { "content-type": "application/json" } });
    }),
  );
});

describe("a tenant that takes no sign-ups", { timeout: 30_000 }, () => {
  it("says so on the register page before anyone fills the form, with nothing to send", async () => {
    open = false;
    renderInApp(<RegisterPage />);
    expect(await screen.findByTestId("register-closed")).toHaveProperty("textContent", "该组织未开放注册，请联系组织管理员开通账号");
    expect(screen.getByRole("button", { name: "获取验证码" })).toHaveProperty("disabled", true);
    expect(screen.getByLabelText("用户名")).toHaveProperty("disabled", true);
  });

  it("offers sign-up on the login page only when the tenant takes it", async () => {
    open = false;
    const closed = renderInApp(<LoginPage />);
    expect(await screen.findByTestId("registration-closed")).toHaveProperty("textContent", "没有账号？请联系组织管理员开通");
    expect(screen.queryByRole("link", { name: "立即注册" })).toBeNull();
    closed.unmount();
    open = true;
    renderInApp(<LoginPage />);
    await waitFor(() => expect(screen.getByRole("link", { name: "立即注册" })).toBeTruthy());
    expect(screen.queryByTestId("registration-closed")).toBeNull();
  });
});
