/**
 * The image type of a file by its first bytes, not by its name or the client's content type:
 * PNG (89 50 4E 47 0D 0A 1A 0A) or JPEG (FF D8 FF). Anything else is null. Hand-written: two
 * fixed signatures do not justify a dependency (file-type is ESM-heavy and detects hundreds).
 */
export function imageType(bytes: Uint8Array): { mimetype: 'image/png' | 'image/jpeg'; extension: 'png' | 'jpg' } | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return { mimetype: 'image/png', extension: 'png' };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { mimetype: 'image/jpeg', extension: 'jpg' };
  return null;
}
