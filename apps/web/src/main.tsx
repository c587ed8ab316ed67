import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, settleRouterBase } from "./app/app";
import "./app/global.css";

await settleRouterBase();
createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
