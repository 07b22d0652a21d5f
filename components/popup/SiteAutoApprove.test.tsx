// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SiteAutoApprove } from "./SiteAutoApprove";

describe("SiteAutoApprove", () => {
  afterEach(cleanup);
  it("is off for a new site and saves a limit and daily budget in micro units", async () => {
    const onSave = vi.fn(async () => {});
    render(<SiteAutoApprove currency="USD" onSave={onSave} />);
    const toggle = screen.getByRole("switch", {
      name: "Auto-approve on this site",
    }) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    fireEvent.click(toggle);
    fireEvent.change(screen.getByLabelText("Auto-approve limit"), { target: { value: "0.05" } });
    fireEvent.change(screen.getByLabelText("Daily budget"), { target: { value: "2" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Saved.")).toBeTruthy();
    expect(onSave).toHaveBeenCalledWith("50000", "2000000");
  });
  it("turns an existing site's auto-approve off with 0", async () => {
    const onSave = vi.fn(async () => {});
    render(
      <SiteAutoApprove
        currency="USD"
        budget={{
          currency: "USD",
          amount: "3000000",
          period: "week",
          autoApproveUpTo: "10000",
          perCallMax: "1000000",
        }}
        onSave={onSave}
      />,
    );
    expect((screen.getByLabelText("Auto-approve limit") as HTMLInputElement).value).toBe("0.01");
    fireEvent.click(screen.getByRole("switch", { name: "Auto-approve on this site" }));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Saved.")).toBeTruthy();
    expect(onSave).toHaveBeenCalledWith("0", "3000000");
  });
});
