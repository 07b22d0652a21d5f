/** Saves text as a file through a Blob URL (no downloads permission needed). */
export function downloadFile(file: { filename: string; mimeType: string; content: string }): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
  const link = document.createElement("a");
  link.href = url;
  link.download = file.filename;
  link.click();
  // Revoked after the click's navigation has started, not before.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
