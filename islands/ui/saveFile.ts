/** Hands a fetched file to the browser's downloads under its name. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own copy once it starts; the address can go.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
