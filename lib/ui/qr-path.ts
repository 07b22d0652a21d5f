import { encode } from "uqr";

/** A QR code as one SVG path: a 1×1 square per dark module, inside a quiet border of `border` modules. */
export function qrPath(text: string, border = 2): { size: number; d: string } {
  const { size, data } = encode(text, { border });
  const squares: string[] = [];
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) squares.push(`M${x} ${y}h1v1h-1z`);
    });
  });
  return { size, d: squares.join("") };
}
