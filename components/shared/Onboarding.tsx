import { type FormEvent, useEffect, useRef, useState } from "react";
import { useFieldAfterFailure } from "@/lib/ui/field-after-failure";
import { t } from "@/lib/ui/i18n";
import { MIN_PASSWORD_LENGTH, passwordStrength } from "@/lib/ui/password-strength";
import { Button, ErrorNote, Field } from "./controls";

export interface OnboardingProps {
  busy: boolean;
  error?: string;
  onCreate(password: string, importPrivateKey?: string): void;
}

const STRENGTH = {
  "too short": () => t("strength.tooShort"),
  weak: () => t("strength.weak"),
  fair: () => t("strength.fair"),
  good: () => t("strength.good"),
  strong: () => t("strength.strong"),
};

/** First run: what the wallet does, then a new wallet or an imported key, under a password. */
export function Onboarding({ busy, error, onCreate }: OnboardingProps) {
  const [mode, setMode] = useState<"welcome" | "create" | "import">("welcome");
  if (mode === "welcome") {
    return (
      <section aria-labelledby="welcome-h" className="mx-auto flex w-full max-w-lg flex-col gap-3">
        <h2 id="welcome-h" className="text-lg font-semibold">
          {t("onboarding.welcome.title")}
        </h2>
        <p className="text-sm">{t("onboarding.welcome.what")}</p>
        <p className="text-sm">{t("onboarding.welcome.control")}</p>
        <Button variant="primary" onClick={() => setMode("create")}>
          {t("onboarding.welcome.create")}
        </Button>
        <Button onClick={() => setMode("import")}>{t("onboarding.welcome.import")}</Button>
      </section>
    );
  }
  return (
    <PasswordForm
      busy={busy}
      error={error}
      onCreate={onCreate}
      mode={mode}
      onMode={setMode}
      onBack={() => setMode("welcome")}
    />
  );
}

function PasswordForm({
  busy,
  error,
  onCreate,
  mode,
  onMode,
  onBack,
}: OnboardingProps & {
  mode: "create" | "import";
  onMode(mode: "create" | "import"): void;
  onBack(): void;
}) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [privateKey, setPrivateKey] = useState("");
  const strength = passwordStrength(password);
  const mismatch = confirm !== "" && confirm !== password;
  const ready =
    password.length >= MIN_PASSWORD_LENGTH &&
    confirm === password &&
    (mode === "create" || privateKey.trim() !== "");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) onCreate(password, mode === "import" ? privateKey.trim() : undefined);
  };
  const start = useRef<HTMLFieldSetElement>(null);
  // A key that is no key is the usual failure; making a wallet has no field of its own to blame.
  const keyField = useRef<HTMLInputElement>(null);
  useFieldAfterFailure(keyField, busy, mode === "import" ? error : undefined);
  // The welcome's button that led here is gone: focus starts on the choice made with it.
  useEffect(() => start.current?.querySelector<HTMLInputElement>("input:checked")?.focus(), []);
  return (
    <form onSubmit={submit} className="mx-auto flex w-full max-w-lg flex-col gap-3">
      <fieldset ref={start} className="flex gap-3 text-sm">
        <legend className="mb-1 font-medium">{t("onboarding.startWith")}</legend>
        <label className="flex items-center gap-1">
          <input
            type="radio"
            name="mode"
            checked={mode === "create"}
            onChange={() => onMode("create")}
          />
          {t("onboarding.newKey")}
        </label>
        <label className="flex items-center gap-1">
          <input
            type="radio"
            name="mode"
            checked={mode === "import"}
            onChange={() => onMode("import")}
          />
          {t("onboarding.keyIHave")}
        </label>
      </fieldset>
      {mode === "import" && (
        <Field
          ref={keyField}
          label={t("onboarding.privateKey")}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="0x…"
          value={privateKey}
          onChange={(e) => setPrivateKey(e.target.value)}
        />
      )}
      <Field
        label={t("onboarding.password")}
        hint={t("onboarding.passwordHint", [String(MIN_PASSWORD_LENGTH)])}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        aria-describedby="password-strength"
      />
      <div className="flex items-center gap-2 text-xs" id="password-strength">
        <meter
          min={0}
          max={4}
          low={2}
          high={3}
          optimum={4}
          value={strength.score}
          aria-label={t("onboarding.strengthLabel")}
        />
        <span data-testid="strength">{t("onboarding.strength", [STRENGTH[strength.label]()])}</span>
      </div>
      <Field
        label={t("onboarding.confirmPassword")}
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        aria-invalid={mismatch}
      />
      {mismatch && (
        <p className="text-xs text-red-700 dark:text-red-400">{t("onboarding.mismatch")}</p>
      )}
      <ErrorNote>{error}</ErrorNote>
      <div className="flex gap-2">
        <Button onClick={onBack}>{t("common.back")}</Button>
        <Button type="submit" variant="primary" disabled={busy || !ready} className="flex-1">
          {mode === "create" ? t("onboarding.createWallet") : t("onboarding.importKey")}
        </Button>
      </div>
    </form>
  );
}
