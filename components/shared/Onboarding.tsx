import { type FormEvent, useState } from "react";
import { MIN_PASSWORD_LENGTH, passwordStrength } from "@/lib/ui/password-strength";
import { Button, ErrorNote, Field } from "./controls";

export interface OnboardingProps {
  busy: boolean;
  error?: string;
  onCreate(password: string, importPrivateKey?: string): void;
}

/** First run: a new wallet or an imported key, under a password. */
export function Onboarding({ busy, error, onCreate }: OnboardingProps) {
  const [mode, setMode] = useState<"create" | "import">("create");
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
  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <fieldset className="flex gap-3 text-sm">
        <legend className="mb-1 font-medium">Start with</legend>
        <label className="flex items-center gap-1">
          <input
            type="radio"
            name="mode"
            checked={mode === "create"}
            onChange={() => setMode("create")}
          />
          a new key
        </label>
        <label className="flex items-center gap-1">
          <input
            type="radio"
            name="mode"
            checked={mode === "import"}
            onChange={() => setMode("import")}
          />
          a key I have
        </label>
      </fieldset>
      {mode === "import" && (
        <Field
          label="Private key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="0x…"
          value={privateKey}
          onChange={(e) => setPrivateKey(e.target.value)}
        />
      )}
      <Field
        label="Password"
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
          aria-label="Password strength"
        />
        <span data-testid="strength">Strength: {strength.label}</span>
      </div>
      <Field
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        aria-invalid={mismatch}
      />
      {mismatch && <p className="text-xs text-red-700 dark:text-red-400">The passwords differ.</p>}
      <ErrorNote>{error}</ErrorNote>
      <Button type="submit" variant="primary" disabled={busy || !ready}>
        {mode === "create" ? "Create wallet" : "Import key"}
      </Button>
    </form>
  );
}
