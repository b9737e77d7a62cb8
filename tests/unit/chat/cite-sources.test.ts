import { describe, expect, it } from 'vitest';
import { citeSources, EXCERPT_CHARS, MAX_CITATIONS } from '../../../server/chat/cite-sources.ts';

const fragment = (n: number, content: string) => ({ source: `Fuente ${n}`, hash: `h${n}`, content });

describe('citeSources', () => {
  it('cites only the fragments a quoting answer repeats, with the quoted sentence', () => {
    const fragments = [fragment(1, 'Abrimos a las nueve de la mañana. Cerramos tarde.'), fragment(2, 'Los envíos tardan dos días laborables.')];
    expect(citeSources('Los envíos tardan dos días laborables.', fragments)).toEqual([
      { source: 'Fuente 2', fragmentId: 'h2', excerpt: 'Los envíos tardan dos días laborables.' },
    ]);
  });

  it('cites every fragment given, best first and at most MAX_CITATIONS, when a model paraphrases', () => {
    const fragments = [1, 2, 3, 4, 5].map((n) => fragment(n, `Texto número ${n} con contenido.`));
    const cited = citeSources('Una respuesta con otras palabras.', fragments);
    expect(cited.map((c) => c.fragmentId)).toEqual(['h1', 'h2', 'h3'].slice(0, MAX_CITATIONS));
  });

  it('cites a fragment once and cuts long excerpts at a word', () => {
    const long = fragment(1, `${'palabra '.repeat(100)}final.`);
    const cited = citeSources('Otra cosa.', [long, long]);
    expect(cited).toHaveLength(1);
    expect(cited[0].excerpt.length).toBeLessThanOrEqual(EXCERPT_CHARS + 1);
    expect(cited[0].excerpt.endsWith('palabra…')).toBe(true);
  });

  it('cites nothing without fragments', () => {
    expect(citeSources('Hola', [])).toEqual([]);
  });
});
