export const OBJECT_TYPES = ["quote", "confirmation", "proof", "receipt"] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];
/** Everything signed as a JWT here: the four objects and registry-signed descriptors. */
export type SignedType = ObjectType | "descriptor";

/** The payload marker and JSON-form marker, e.g. `quote/0.1`. */
export function versionTag<T extends SignedType>(type: T): `${T}/0.1` {
  return `${type}/0.1`;
}

/** The protected header `typ`, e.g. `stipendex-quote+jwt`. */
export function typHeader<T extends SignedType>(type: T): `stipendex-${T}+jwt` {
  return `stipendex-${type}+jwt`;
}
