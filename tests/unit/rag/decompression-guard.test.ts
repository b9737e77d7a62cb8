import { createDeflateRaw, deflateRawSync, deflateSync } from 'node:zlib';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { checkPdfStreams, checkZipArchive, isZlibHeader, MAX_PDF_FLATE_LAYERS, readZipDirectory } from '../../../server/rag/parse/decompression-guard.ts';
import { parseDocument } from '../../../server/rag/parse/parse-file.ts';
import { RagError } from '../../../server/rag/rag-error.ts';
import { buildZip } from '../../helpers/build-zip.ts';

/**
 * Bypasses of the decompression guard found in review, each built here at run time (no large
 * files in git) and refused; ordinary documents built the same way still pass.
 */


const CONTENT_TYPES =
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
const documentXml = (text: string) =>
  Buffer.from(`<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`);

const docx = (text: string) =>
  buildZip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', data: documentXml(text) },
  ]);

/** Raw deflate of `bytes` spaces, produced in 1 MB slices so the test never holds them. */
async function deflatedSpaces(bytes: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const slice = Buffer.alloc(1024 * 1024, 0x20);
  for (let written = 0; written < bytes; written += slice.length) {
    if (!deflate.write(slice.subarray(0, Math.min(slice.length, bytes - written)))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

async function refused(check: Promise<unknown>, code: string, pattern: RegExp) {
  const error = await check.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'expected a refusal').toBeInstanceOf(RagError);
  expect((error as RagError).code).toBe(code);
  expect((error as RagError).message).toMatch(pattern);
}

describe('DOCX guard: the directory JSZip reads is the one checked', () => {
  it('an ordinary DOCX passes and is read', async () => {
    await checkZipArchive(docx('Hola'));
    expect((await parseDocument(docx('Hola'), { filename: 'a.docx' })).content).toBe('Hola');
  });

  it('an end record declaring fewer entries than the directory holds (300 MB document.xml hidden) is refused', async () => {
    const hidden = await deflatedSpaces(300 * 1024 * 1024);
    const archive = buildZip([
      { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
      { name: 'word/document.xml', compressed: hidden, declaredSize: 300 * 1024 * 1024 },
    ]);
    archive.writeUInt16LE(1, archive.length - 22 + 8);
    archive.writeUInt16LE(1, archive.length - 22 + 10);
    expect(archive.length).toBeLessThan(400 * 1024);
    // The attack is real: JSZip ignores the count and sees the hidden part.
    expect(Object.keys((await JSZip.loadAsync(archive)).files)).toContain('word/document.xml');
    await refused(checkZipArchive(archive), 'unreadableFile', /declares 1 parts but the central directory holds 2/);
    await refused(parseDocument(archive, { filename: 'a.docx' }), 'unreadableFile', /declares 1 parts/);
  });

  it('an end record declaring more entries than there are is refused', async () => {
    const archive = docx('x');
    archive.writeUInt16LE(4, archive.length - 22 + 8);
    archive.writeUInt16LE(4, archive.length - 22 + 10);
    await refused(checkZipArchive(archive), 'unreadableFile', /declares 4 parts but the central directory holds 3/);
  });

  it('data prepended to the archive (JSZip re-bases its offsets; a decoy directory sits where ours would read) is refused', async () => {
    const real = buildZip([
      { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
      { name: 'word/document.xml', compressed: deflateRawSync(Buffer.alloc(5 * 1024 * 1024, 0x20)), declaredSize: 5 * 1024 * 1024 },
    ]);
    const decoy = docx('decoy');
    const archive = Buffer.concat([decoy, real]);
    // JSZip reads the real (last) archive at re-based offsets.
    expect((await (await JSZip.loadAsync(archive)).file('word/document.xml')!.async('uint8array')).length).toBe(5 * 1024 * 1024);
    await refused(checkZipArchive(archive), 'unreadableFile', /does not end where the end record is/);
    await refused(checkZipArchive(Buffer.concat([Buffer.alloc(100, 0x41), docx('x')])), 'unreadableFile', /data before or inside the archive/);
  });

  it('the walk stops at the end record and reads every part', () => {
    expect(readZipDirectory(docx('x')).map((entry) => entry.name)).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
  });
});

function pdf(dictionary: string, data: Buffer, trailer = '<< /Root 1 0 R >>', keyword = 'stream\n'): Buffer {
  return Buffer.concat([
    Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n3 0 obj\n<< /Length ${data.length} ${dictionary} >>\n${keyword}`),
    data,
    Buffer.from(`\nendstream\nendobj\ntrailer\n${trailer}\n%%EOF\n`),
  ]);
}

const BUDGET = 1024 * 1024;
const zeros = Buffer.alloc(2 * BUDGET);

describe('PDF guard', () => {
  it('accepts every zlib header pdf.js accepts', () => {
    expect(isZlibHeader(0x78, 0x9c)).toBe(true);
    expect(isZlibHeader(0x68, 0x81)).toBe(true);
    expect(isZlibHeader(0x58, 0x85)).toBe(true);
    expect(isZlibHeader(0x78, 0x9d)).toBe(false);
    expect(isZlibHeader(0x79, 0x9c)).toBe(false);
  });

  it('an ordinary Flate stream within the budget passes', async () => {
    await checkPdfStreams(pdf('/Filter /FlateDecode', deflateSync(Buffer.alloc(1000))), BUDGET);
    // A link to another file (/F as a file specification by reference) is not a filter.
    const link = Buffer.from('%PDF-1.4\n4 0 obj\n<< /Type /Action /S /GoToR /F 5 0 R /D [0 /Fit] >>\nendobj\n5 0 obj\n<< /Type /Filespec /F (otro.pdf) >>\nendobj\n');
    await checkPdfStreams(Buffer.concat([link, pdf('/Filter /FlateDecode /F 4', deflateSync(Buffer.alloc(10)))]), BUDGET);
  });

  it.each([
    ['0x78 (default window)', {}],
    ['0x68 (16 KB window)', { windowBits: 14 }],
    ['0x58 (8 KB window)', { windowBits: 13 }],
  ])('a Flate bomb whose zlib header starts %s is counted', async (_label, options) => {
    const data = deflateSync(zeros, options);
    await refused(checkPdfStreams(pdf('/Filter /FlateDecode', data), BUDGET), 'archiveBomb', /expand to more than/);
  });

  it('nested Flate layers are counted, and too many layers refused', async () => {
    await refused(checkPdfStreams(pdf('/Filter [/FlateDecode /FlateDecode]', deflateSync(deflateSync(zeros))), BUDGET), 'archiveBomb', /expand to more than/);
    let layered = Buffer.from('x');
    for (let i = 0; i <= MAX_PDF_FLATE_LAYERS; i += 1) layered = deflateSync(layered);
    await refused(checkPdfStreams(pdf('/Filter /FlateDecode', layered), BUDGET), 'archiveBomb', /more than \d+ layers/);
  });

  it('a keyword followed by spaces before the end of line, or an "endstream" inside the data, hides nothing', async () => {
    await refused(checkPdfStreams(pdf('/Filter /FlateDecode', deflateSync(zeros), undefined, 'stream   \n'), BUDGET), 'archiveBomb', /expand to more than/);
    // zlib header, a stored block holding "endstream", then the bomb.
    const marker = Buffer.from('endstream');
    const stored = Buffer.alloc(5);
    stored.writeUInt8(0, 0);
    stored.writeUInt16LE(marker.length, 1);
    stored.writeUInt16LE(~marker.length & 0xffff, 3);
    const data = Buffer.concat([Buffer.from([0x78, 0x01]), stored, marker, deflateRawSync(zeros)]);
    await refused(checkPdfStreams(pdf('/Filter /FlateDecode', data), BUDGET), 'archiveBomb', /expand to more than/);
  });

  it.each([
    ['[/ASCIIHexDecode /FlateDecode]', '/Filter [/ASCIIHexDecode /FlateDecode]', /chains the filters/],
    ['[/AHx /Fl] under the /F abbreviation', '/F [/AHx /Fl]', /chains the filters/],
    ['[/A85 %] comment\\n /Fl]', '/Filter [/A85 %]\n /Fl]', /chains the filters/],
    ['/LZWDecode', '/Filter /LZWDecode', /LZWDecode filter/],
    ['/LZ#57Decode (escaped name)', '/Filte#72 /LZ#57Decode', /LZWDecode filter/],
    ['/RunLengthDecode', '/Filter [/RL]', /RL filter/],
    ['/BrotliDecode', '/Filter /BrotliDecode', /BrotliDecode filter/],
    ['a filter by reference', '/Filter 9 0 R', /by reference/],
    ['a filter array holding a reference', '/Filter [9 0 R]', /by reference/],
  ])('a stream filtered with %s is refused', async (_label, dictionary, pattern) => {
    await refused(checkPdfStreams(pdf(dictionary, Buffer.from('00')), BUDGET), 'archiveBomb', pattern);
  });

  it('a filter value that does not end within 4 KB (padding to hide it) is refused', async () => {
    await refused(checkPdfStreams(pdf(`/Filter [${' '.repeat(5000)}/AHx /Fl]`, Buffer.from('00')), BUDGET), 'archiveBomb', /does not end within/);
  });

  it('an encrypted PDF (the guard would see ciphertext) is refused', async () => {
    await refused(checkPdfStreams(pdf('/Filter /FlateDecode', deflateSync(Buffer.from('x')), '<< /Root 1 0 R /Encrypt 7 0 R >>'), BUDGET), 'unreadableFile', /encrypted/);
    await refused(checkPdfStreams(pdf('', Buffer.from('x'), '<< /Root 1 0 R /Encr#79pt 7 0 R >>'), BUDGET), 'unreadableFile', /encrypted/);
  });
});
