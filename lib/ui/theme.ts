import { STORAGE_KEYS } from "../storage-keys";

/** How the wallet's pages look: as the system does, or always light, or always dark. */
export type ThemeChoice = "system" | "light" | "dark";

export const THEME_CHOICES: readonly ThemeChoice[] = ["system", "light", "dark"];

const isThemeChoice = (value: unknown): value is ThemeChoice =>
  THEME_CHOICES.includes(value as ThemeChoice);

/** The person's theme as stored; "system" when none (or something else) is. */
export function readTheme(storage: Pick<Storage, "getItem">): ThemeChoice {
  const stored = storage.getItem(STORAGE_KEYS.theme);
  return isThemeChoice(stored) ? stored : "system";
}

/**
 * Shows `doc` in `choice`: a class on the root for a fixed theme, none to
 * follow the system (styles.css's `dark:` variant reads both).
 */
export function applyTheme(doc: Document, choice: ThemeChoice): void {
  const root = doc.documentElement;
  root.classList.toggle("light", choice === "light");
  root.classList.toggle("dark", choice === "dark");
}

/** Keeps the person's theme, and shows this page in it at once. */
export function saveTheme(win: Window, choice: ThemeChoice): void {
  if (choice === "system") win.localStorage.removeItem(STORAGE_KEYS.theme);
  else win.localStorage.setItem(STORAGE_KEYS.theme, choice);
  applyTheme(win.document, choice);
}

/**
 * Shows the page in the person's theme, and again whenever another wallet
 * page changes it (localStorage's `storage` event reaches the others only).
 */
export function followTheme(win: Window): void {
  applyTheme(win.document, readTheme(win.localStorage));
  win.addEventListener("storage", (event) => {
    if (event.key === STORAGE_KEYS.theme || event.key === null) {
      applyTheme(win.document, readTheme(win.localStorage));
    }
  });
}
