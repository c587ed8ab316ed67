import { useEffect } from "react";

/** While there are unsaved changes, closing or reloading the tab asks first (the browser's own prompt). */
export function useWarnOnLeave(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
}
