/** The message to show a person for something thrown. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
