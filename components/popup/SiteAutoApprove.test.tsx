// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeBrowser } from "wxt/testing/fake-browser";
import { SiteAutoApprove } from "./SiteAutoApprove";

const SWITCH = "Automatic payments on this site";

describe("SiteAutoApprove", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });
  it("is off for a new site and saves a limit and daily budget in micro units", async () => {
    const onSave = vi.fn(async () => {});
    render(<SiteAutoApprove currency="USD" onSave={onSave} />);
    const toggle = screen.getByRole("switch", { name: SWITCH }) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    expect(screen.queryByLabelText("Automatic payment limit")).toBeNull();
    fireEvent.click(toggle);
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText("Automatic payment limit"), {
      target: { value: "0.05" },
    });
    fireEvent.change(screen.getByLabelText("Daily budget"), { target: { value: "2" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Saved.")).toBeTruthy();
    expect(onSave).toHaveBeenCalledWith("50000", "2000000");
  });
  it("stops an existing site's automatic payments as soon as the switch goes off", async () => {
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
    expect((screen.getByLabelText("Automatic payment limit") as HTMLInputElement).value).toBe(
      "0.01",
    );
    expect(screen.getByText("USD per week")).toBeTruthy();
    fireEvent.click(screen.getByRole("switch", { name: SWITCH }));
    expect(await screen.findByText("Saved.")).toBeTruthy();
    expect(onSave).toHaveBeenCalledWith("0", "3000000");
  });
  it("writes and reads the amounts with the language's decimal mark", async () => {
    vi.spyOn(fakeBrowser.i18n, "getUILanguage").mockReturnValue("de");
    const onSave = vi.fn(async () => {});
    render(<SiteAutoApprove currency="USD" onSave={onSave} />);
    fireEvent.click(screen.getByRole("switch", { name: SWITCH }));
    const limit = screen.getByLabelText("Automatic payment limit") as HTMLInputElement;
    expect(limit.value).toBe("0,01");
    fireEvent.change(screen.getByLabelText("Daily budget"), { target: { value: "2,5" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Saved.")).toBeTruthy();
    expect(onSave).toHaveBeenCalledWith("10000", "2500000");
  });
});
