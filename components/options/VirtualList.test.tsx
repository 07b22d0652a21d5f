// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VirtualList } from "./VirtualList";

describe("VirtualList", () => {
  afterEach(cleanup);

  it("renders only a window of 100,000 rows and follows scrolling", () => {
    const onRangeChange = vi.fn();
    render(
      <VirtualList
        label="Payments"
        count={100_000}
        rowHeight={40}
        height={400}
        overscan={5}
        renderRow={(i) => <span>Row {i}</span>}
        onRangeChange={onRangeChange}
      />,
    );
    const list = screen.getByRole("list", { name: "Payments" });
    let items = within(list).getAllByRole("listitem");
    expect(items).toHaveLength(16);
    expect(items[0]?.textContent).toBe("Row 0");
    expect(list.style.height).toBe("4000000px");
    expect(onRangeChange).toHaveBeenLastCalledWith(0, 16);

    const scroller = list.parentElement as HTMLElement;
    scroller.scrollTop = 2_000_000;
    fireEvent.scroll(scroller);
    items = within(list).getAllByRole("listitem");
    expect(items).toHaveLength(21);
    expect(items[0]?.textContent).toBe("Row 49995");
    expect(items[0]?.style.top).toBe(`${49_995 * 40}px`);
    expect(items[0]?.getAttribute("aria-posinset")).toBe("49996");
    expect(items[0]?.getAttribute("aria-setsize")).toBe("100000");
    expect(screen.queryByText("Row 0")).toBeNull();
    expect(onRangeChange).toHaveBeenLastCalledWith(49_995, 50_016);
  });
});
