/**
 * Saves a generated file in the browser (the exports of the CRUD pattern): a Blob, a temporary
 * object URL and a link clicked once.
 */
export function saveFile(file: { fileName: string; mime: string; content: string | Uint8Array }, doc: Document = document): void {
  const blob = new Blob([file.content as BlobPart], { type: file.mime });
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.rel = 'noopener';
  doc.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Saves a Blob the server produced (a quote's PDF) under `fileName`, as {@link saveFile} does. */
export function saveBlobFile(blob: Blob, fileName: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  doc.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
