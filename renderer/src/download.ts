/** Lets the browser download what `href` points at (the server's Content-Disposition names the file). */
export function downloadUrl(href: string, filename = ''): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  a.click();
}

/** Hands `content` to the browser as a file download (exports of history and of runs). */
export function download(filename: string, mime: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mime }));
  downloadUrl(url, filename);
  URL.revokeObjectURL(url);
}
