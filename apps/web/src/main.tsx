import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, settleRouterBase } from "./app/app";
import "antd/dist/antd.css";
import "./app/global.css";

await settleRouterBase();
createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
