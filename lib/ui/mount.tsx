import { type ReactNode, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { followTheme } from "./theme";

/**
 * Renders a page's root component into #root, in the person's theme, under
 * `title` (translated here because the page's HTML cannot call t()).
 */
export function mount(node: ReactNode, title: string): void {
  document.title = title;
  followTheme(window);
  const container = document.getElementById("root");
  if (!container) throw new Error("The page has no #root element");
  createRoot(container).render(<StrictMode>{node}</StrictMode>);
}
