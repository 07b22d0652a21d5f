export type StrengthLabel = "too short" | "weak" | "fair" | "good" | "strong";

export interface PasswordStrength {
  /** 0 (unusable) to 4. */
  score: 0 | 1 | 2 | 3 | 4;
  label: StrengthLabel;
}

export const MIN_PASSWORD_LENGTH = 8;

const LABELS: StrengthLabel[] = ["too short", "weak", "fair", "good", "strong"];

/**
 * A rough guide shown while typing, not a gate beyond the minimum length:
 * length counts most, mixing character kinds helps, repeats hurt.
 */
export function passwordStrength(password: string): PasswordStrength {
  if (password.length < MIN_PASSWORD_LENGTH) return { score: 0, label: "too short" };
  const kinds = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) =>
    re.test(password),
  ).length;
  const distinct = new Set(password).size;
  let points =
    (password.length >= 12 ? 1 : 0) + (password.length >= 16 ? 1 : 0) + (kinds >= 3 ? 1 : 0);
  if (kinds === 4) points += 1;
  if (distinct < password.length / 2) points -= 2;
  const score = Math.min(4, Math.max(1, points + 1)) as PasswordStrength["score"];
  return { score, label: LABELS[score] ?? "weak" };
}
