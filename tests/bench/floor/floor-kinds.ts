/** What the floor's worker does for one call, by the method the page sends. */
export const FLOOR_KINDS = {
  floor_hops: "floor: hook -> relay -> worker -> back, nothing done there",
  floor_ledger: "floor: those hops + the hot path's read-write transaction, committed",
  floor_paid: "floor: those hops + that transaction + the signatures, committed before the answer",
} as const;

export type FloorKind = keyof typeof FLOOR_KINDS;

export function isFloorKind(method: unknown): method is FloorKind {
  return typeof method === "string" && Object.hasOwn(FLOOR_KINDS, method);
}
