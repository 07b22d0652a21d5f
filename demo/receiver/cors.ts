import type { NextFunction, Request, Response } from "express";

/**
 * Headers a page on another origin must be able to read: the MCP session only. The payment
 * headers (a price in PAYMENT-REQUIRED, receipts) are left unexposed, as a server using CORS's
 * defaults leaves them: the wallet exposes them to pages itself (public/rules).
 */
export const EXPOSED_HEADERS = ["Mcp-Session-Id"] as const;

/** Headers a page on another origin may send (payments, MCP session and resumption). */
export const ALLOWED_HEADERS = [
  "Stipendex-Payment",
  "X-PAYMENT",
  "PAYMENT-SIGNATURE",
  "Content-Type",
  "Accept",
  "Mcp-Session-Id",
  "Mcp-Protocol-Version",
  "Last-Event-ID",
] as const;

/**
 * CORS for the demo receivers: any origin may call them (the agent page runs on its own
 * origin), and preflights are answered here so they never reach a payment middleware.
 */
export function cors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader("Access-Control-Allow-Origin", req.header("Origin") ?? "*");
  res.setHeader("Vary", "Origin");
  res.setHeader("Access-Control-Expose-Headers", EXPOSED_HEADERS.join(", "));
  if (req.method === "OPTIONS") {
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
    res.setHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS.join(", "));
    res.setHeader("Access-Control-Max-Age", "600");
    res.status(204).end();
    return;
  }
  next();
}
