import type { UploadedFile } from '../../../runtime/transport/rest-transport.ts';
import type { RagChunk } from '../rag-api.ts';

/** One piece of content being added to a knowledge base: pasted text, an uploaded file or a link. */
export type ContentKind = 'text' | 'file' | 'link';

/**
 * waiting: not read yet; reading: upload / extraction / chunking under way; ready: its chunks are
 * previewed; saving: its knowledge source is being created; saved: it is a source of the base;
 * failed: `error` says why (the other items go on).
 */
export type ContentStatus = 'waiting' | 'reading' | 'ready' | 'saving' | 'saved' | 'failed';

export interface ContentItem {
  key: string;
  kind: ContentKind;
  name: string;
  status: ContentStatus;
  /** Pasted text (kind text). */
  text?: string;
  /** The chosen file (kind file), uploaded once into `uploaded`. */
  file?: File;
  uploaded?: UploadedFile;
  /** The link (kind link). */
  url?: string;
  /** Extracted text and its chunks (the preview). */
  extracted?: string;
  chunks?: RagChunk[];
  /** A locale key or a translated server message. */
  error?: string;
  /** The knowledge source created for it. */
  sourceId?: string;
}

/** Files the server can read (manifests/knowledgeSource.json file.form.accept). */
export const ACCEPTED_EXTENSIONS = ['.pdf', '.docx', '.html', '.htm', '.md', '.txt'] as const;
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');
/** At most this many items in one batch: each is an upload, an extraction and a source. */
export const MAX_ITEMS = 50;
/** The server's limit for one text to chunk (server/rag/chunk/chunk-text.ts). */
export const MAX_TEXT_LENGTH = 2_000_000;
/** The link field's limit (manifests/knowledgeSource.json). */
export const MAX_URL_LENGTH = 2048;
/** The source name's limit (manifests/knowledgeSource.json). */
export const MAX_NAME_LENGTH = 200;

/** Chunk settings of the flow (docs/product-rules.md#constants UI chunking: 1000 and 100), folded away in the dialog. */
export interface ChunkSettings {
  chunkSize: number;
  chunkOverlap: number;
}

let counter = 0;
const nextKey = () => `item-${Date.now().toString(36)}-${(counter += 1)}`;

function clip(name: string): string {
  const clean = name.replace(/\s+/g, ' ').trim();
  return clean.length > MAX_NAME_LENGTH ? `${clean.slice(0, MAX_NAME_LENGTH - 1)}…` : clean;
}

/** A pasted text, named by the title given or by its first line. Empty text is refused here. */
export function textItem(text: string, title = ''): ContentItem {
  const firstLine = text.trim().split('\n')[0] ?? '';
  const name = clip(title) || clip(firstLine.length > 60 ? `${firstLine.slice(0, 60)}…` : firstLine);
  const item: ContentItem = { key: nextKey(), kind: 'text', name: name || 'text', status: 'waiting', text };
  if (text.trim() === '') return { ...item, status: 'failed', error: 'knowledge.add.error.emptyText' };
  if (text.length > MAX_TEXT_LENGTH) return { ...item, status: 'failed', error: 'knowledge.add.error.textTooLong' };
  return item;
}

export function isAcceptedFile(name: string): boolean {
  const lower = name.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/** A chosen file; one the server cannot read is refused here with the accepted types. */
export function fileItem(file: File): ContentItem {
  const item: ContentItem = { key: nextKey(), kind: 'file', name: clip(file.name) || 'file', status: 'waiting', file };
  if (!isAcceptedFile(file.name)) return { ...item, status: 'failed', error: 'knowledge.add.error.unsupportedFile' };
  if (file.size === 0) return { ...item, status: 'failed', error: 'knowledge.add.error.emptyFile' };
  return item;
}

/** A link: http or https only (the server also refuses private addresses, see server/rag/README.md). */
export function linkItem(raw: string): ContentItem {
  const url = raw.trim();
  const item: ContentItem = { key: nextKey(), kind: 'link', name: clip(url) || 'link', status: 'waiting', url };
  if (url.length > MAX_URL_LENGTH) return { ...item, status: 'failed', error: 'knowledge.add.error.urlTooLong' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ...item, status: 'failed', error: 'knowledge.add.error.invalidUrl' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ...item, status: 'failed', error: 'knowledge.add.error.invalidUrl' };
  return { ...item, name: clip(`${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`) || url };
}

/** Links pasted one per line (blank lines skipped). */
export function linkItems(text: string): ContentItem[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '').map(linkItem);
}

/** What reading an item needs from the server (injected: tests pass fakes). */
export interface ReadDeps {
  upload: (file: File) => Promise<UploadedFile>;
  parseFile: (filepath: string) => Promise<{ content: string }>;
  parseUrl: (url: string) => Promise<{ content: string }>;
  chunk: (text: string, settings: ChunkSettings) => Promise<{ chunks: RagChunk[] }>;
}

/**
 * Upload (once), extract and chunk one item. The extracted text is kept, so new chunk settings
 * only chunk again. An extraction that gives no text is a failure of that item.
 */
export async function readItem(item: ContentItem, deps: ReadDeps, settings: ChunkSettings): Promise<Pick<ContentItem, 'uploaded' | 'extracted' | 'chunks'>> {
  let uploaded = item.uploaded;
  let extracted = item.extracted;
  if (extracted === undefined) {
    if (item.kind === 'text') extracted = item.text ?? '';
    else if (item.kind === 'file') {
      if (!item.file && !uploaded) throw new ItemError('knowledge.add.error.unsupportedFile');
      uploaded ??= await deps.upload(item.file as File);
      extracted = (await deps.parseFile(uploaded.filepath)).content;
    } else extracted = (await deps.parseUrl(item.url ?? '')).content;
  }
  if (extracted.trim() === '') throw new ItemError('knowledge.add.error.noText');
  const { chunks } = await deps.chunk(extracted, settings);
  return { ...(uploaded ? { uploaded } : {}), extracted, chunks };
}

/** A failure of one item that is already a locale key. */
export class ItemError extends Error {
  constructor(readonly key: string) {
    super(key);
    this.name = 'ItemError';
  }
}

/**
 * The knowledge source an item becomes: its text both as source text and edited text (the
 * detailed editor can refine either), and the previewed chunks, which training indexes as they are.
 */
export function sourceInput(item: ContentItem): Record<string, unknown> {
  const text = item.extracted ?? '';
  const base = { name: item.name, sourceText: text, text, chunks: (item.chunks ?? []).map(({ content, category, tags }) => ({ content, category: category ?? '', tags: tags ?? [] })) };
  if (item.kind === 'file') return { ...base, type: 'file', file: item.uploaded };
  if (item.kind === 'link') return { ...base, type: 'link', link: item.url };
  return { ...base, type: 'text' };
}
