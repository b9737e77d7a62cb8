// Issue 17: the retrieval index accepts exactly what a knowledge record may hold (its manifest),
// not a hand-kept wider range; only HybridIndex's candidate pools may ask for more.
import { describe, expect, it } from 'vitest';
import { entities } from '../../../server/generated/entities.ts';
import { CANDIDATES_PER_RESULT, checkSearchInput, MAX_RESULTS_RANGE } from '../../../server/rag/search/index-input.ts';

const field = (name: string) => entities.knowledge.fields.find((f) => f.name === name)!;

describe('checkSearchInput', () => {
  it('takes maxResults and scoreThreshold ranges from the knowledge model', () => {
    expect(MAX_RESULTS_RANGE).toEqual({ min: field('maxResults').validation.min, max: field('maxResults').validation.max });
    expect(MAX_RESULTS_RANGE).toEqual({ min: 1, max: 50 });
  });

  it('accepts 1..50 and refuses 0, 51 and 1000 naming the field and the range', () => {
    for (const maxResults of [1, 50]) expect(checkSearchInput('k', 'q', { maxResults, scoreThreshold: 0.5 }).maxResults).toBe(maxResults);
    for (const maxResults of [0, 51, 1000, 2.5]) {
      expect(() => checkSearchInput('k', 'q', { maxResults, scoreThreshold: 0.5 })).toThrow(`maxResults must be an integer from 1 to 50; got ${maxResults}`);
    }
    expect(() => checkSearchInput('k', 'q', { maxResults: 5, scoreThreshold: 1.5 })).toThrow('scoreThreshold must be a number from 0 to 1');
  });

  it('lets a fusion candidate pool ask for CANDIDATES_PER_RESULT times the limit, no more', () => {
    const most = 50 * CANDIDATES_PER_RESULT;
    expect(checkSearchInput('k', 'q', { maxResults: most, scoreThreshold: 0, candidates: true }).maxResults).toBe(most);
    expect(() => checkSearchInput('k', 'q', { maxResults: most + 1, scoreThreshold: 0, candidates: true })).toThrow(`from 1 to ${most}`);
  });
});
