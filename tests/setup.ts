import "fake-indexeddb/auto";
import { fakeBrowser } from "wxt/testing";
import { chromeGetMessage, loadLocaleMessages } from "./unit-support/ui/locale-messages";

const messages = await loadLocaleMessages("locales/en.yml");
fakeBrowser.i18n.getMessage = (key: string, substitutions?: string | string[]) =>
  chromeGetMessage(messages, key, substitutions);
// What an English browser answers; a test that needs another language spies on it.
fakeBrowser.i18n.getUILanguage = () => "en-US";
