export interface ContactMemoryItem {
  attribute?: string | null;
  content?: string | null;
}

export const CONTACT_MEMORY_HEADING = 'Datos conocidos del contacto:';

/** The contact's memory as "- attribute: content" lines; empty entries are skipped. */
export function formatContactMemoryLines(memory: readonly ContactMemoryItem[] | null | undefined): string[] {
  const lines: string[] = [];
  for (const item of memory ?? []) {
    const attribute = item.attribute?.trim() ?? '';
    const content = (item.content ?? '').replace(/\s+/g, ' ').trim();
    if (!content) continue;
    lines.push(attribute ? `- ${attribute}: ${content}` : `- ${content}`);
  }
  return lines;
}
