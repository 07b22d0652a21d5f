import { generateChromeMessages, parseMessagesFile } from "@wxt-dev/i18n/build";

/**
 * The English messages as the built extension ships them: locales/en.yml
 * through @wxt-dev/i18n's own parser, so component tests read the real text.
 */
export async function loadLocaleMessages(file: string): Promise<Record<string, string>> {
  const chrome = generateChromeMessages(await parseMessagesFile(file));
  return Object.fromEntries(Object.entries(chrome).map(([key, value]) => [key, value.message]));
}

/** browser.i18n.getMessage's rules: `$1`…`$9` take the substitutions, `$$` is a dollar. */
export function chromeGetMessage(
  messages: Record<string, string>,
  key: string,
  substitutions?: string | string[],
): string {
  const message = messages[key];
  if (message === undefined) return "";
  const subs =
    substitutions === undefined
      ? []
      : Array.isArray(substitutions)
        ? substitutions
        : [substitutions];
  return message.replace(/\$(\$|[1-9])/g, (_, which: string) =>
    which === "$" ? "$" : (subs[Number(which) - 1] ?? ""),
  );
}
