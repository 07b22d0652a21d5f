import { type ReactNode, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { followTheme } from "./theme";

/** Renders a page's root component into #root, in the person's theme. */
export function mount(node: ReactNode): void {
  followTheme(window);
  const container = document.getElementById("root");
  if (!container) throw new Error("The page has no #root element");
  createRoot(container).render(<StrictMode>{node}</StrictMode>);
}
