/**
 * Replaces {{name}} placeholders with the given values in one pass. Deliberately not a template
 * engine: bot prompts are written by tenants, so nothing in them is evaluated, unknown placeholders
 * stay as written, and a value that itself contains "{{botName}}" (a retrieved document, say) is
 * inserted literally rather than expanded.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export function renderPromptTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (placeholder: string, name: string) =>
    Object.hasOwn(values, name) ? values[name] : placeholder,
  );
}
