import { sha256Base64url } from "../canonical-json";
import { readCompact } from "./compact";

/** `qh` / `ph` / `ch`: base64url(SHA-256(compact JWS as ASCII)). */
export async function objectHash(compactJws: string): Promise<string> {
  return sha256Base64url(readCompact(compactJws));
}
