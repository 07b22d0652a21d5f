import { i18n } from "#i18n";

/** Every user-facing string: typed keys from locales/en.yml, the browser picks the language. */
export const t = i18n.t;
