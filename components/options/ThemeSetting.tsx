import { useState } from "react";
import { t } from "@/lib/ui/i18n";
import { readTheme, saveTheme, THEME_CHOICES, type ThemeChoice } from "@/lib/ui/theme";
import { SelectField } from "../shared/controls";

const WORDS: Record<ThemeChoice, () => string> = {
  system: () => t("settings.appearance.system"),
  light: () => t("settings.appearance.light"),
  dark: () => t("settings.appearance.dark"),
};

/** The person's theme, applied as soon as it is picked (no Save): what they see is what they chose. */
export function ThemeSetting() {
  const [theme, setTheme] = useState(() => readTheme(window.localStorage));
  return (
    <SelectField
      label={t("settings.appearance.theme")}
      className="w-48"
      value={theme}
      onChange={(event) => {
        const choice = event.target.value as ThemeChoice;
        saveTheme(window, choice);
        setTheme(choice);
      }}
    >
      {THEME_CHOICES.map((choice) => (
        <option key={choice} value={choice}>
          {WORDS[choice]()}
        </option>
      ))}
    </SelectField>
  );
}
