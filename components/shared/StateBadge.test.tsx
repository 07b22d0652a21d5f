// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { StateBadge } from "./StateBadge";

describe("StateBadge", () => {
  afterEach(cleanup);

  // The chain settled a payment whose Receipt was rejected: green alone would say all is well.
  it("marks a paid payment that has a reason, and says the reason to screen readers", () => {
    const reason = "Receipt rejected: the Receipt's ph is not the hash of the Proof sent";
    render(<StateBadge state="settled" reason={reason} />);
    expect(screen.getByTestId("state-note").textContent).toBe(" ⚠");
    expect(screen.getByTitle(reason).textContent).toContain(`: ${reason}`);
  });

  it("only marks a paid payment whose reason is written beside it: read once, not twice", () => {
    const reason = "Not confirmed on chain: the claimed transaction was not found.";
    render(<StateBadge state="settled" reason={reason} reasonBeside />);
    expect(screen.getByTestId("state-note").textContent).toBe(" ⚠");
    expect(document.body.textContent).toBe("paid ⚠");
    expect(screen.queryByTitle(reason)).toBeNull();
  });

  it("leaves a paid payment without one, and a failed one, unmarked", () => {
    render(<StateBadge state="settled" />);
    render(<StateBadge state="failed" reason="The receiver refused the payment" />);
    expect(screen.queryByTestId("state-note")).toBeNull();
  });
});
