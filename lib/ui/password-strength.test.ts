import { describe, expect, it } from "vitest";
import { passwordStrength } from "./password-strength";

describe("passwordStrength", () => {
  it("calls anything under 8 characters too short", () => {
    expect(passwordStrength("Ab1!x")).toEqual({ score: 0, label: "too short" });
  });
  it("ranks longer and more varied passwords higher", () => {
    expect(passwordStrength("abcdefgh").label).toBe("weak");
    expect(passwordStrength("abcdefgh1234").label).toBe("fair");
    expect(passwordStrength("Abcdefgh1234").label).toBe("good");
    expect(passwordStrength("Correct-Horse-42-Battery").label).toBe("strong");
  });
  it("marks down passwords made of few distinct characters", () => {
    expect(passwordStrength("aaaaaaaaaaaaaaaa").label).toBe("weak");
  });
});
