/**
 * Bytes to a string: the given charset if any and known, else UTF-8 (BOM stripped), falling back
 * to Windows-1252 (what "latin1" files from Spanish Windows machines really are) when the bytes
 * are not valid UTF-8.
 */
export function decodeText(bytes: Uint8Array, charset?: string): string {
  if (charset) {
    try {
      return new TextDecoder(charset.trim().toLowerCase()).decode(bytes);
    } catch {
      // Unknown label: fall through to detection.
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
