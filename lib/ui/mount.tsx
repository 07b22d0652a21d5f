import { type ReactNode, StrictMode } from "react";
import { createRoot } from "react-dom/client";

/** Renders a page's root component into #root. */
export function mount(node: ReactNode): void {
  const container = document.getElementById("root");
  if (!container) throw new Error("The page has no #root element");
  createRoot(container).render(<StrictMode>{node}</StrictMode>);
}
