import type { ReactNode } from "react";

/** Common frame of the wallet's pages: the name, then the page's own content. */
export function Shell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="min-h-full bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <header className="flex items-center gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
        <span aria-hidden="true" className="inline-block h-3 w-3 rounded-full bg-emerald-500" />
        <h1 className="text-base font-semibold">{title}</h1>
      </header>
      <main className="p-4">{children}</main>
    </div>
  );
}
