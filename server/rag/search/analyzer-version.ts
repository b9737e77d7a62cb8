/**
 * Version of the analysis stored in an index. 0: every chunk through the Spanish analyzer (before
 * languages); 1: each chunk through its own language's analyzer, terms encoded by `encodeTerm`.
 * An index trained with an older version is searched the old way until it is trained again, which
 * then rebuilds it whole (server/rag/README.md "Languages").
 *
 * A module of its own with no imports: server/db/owned-tables.ts needs the number, and reaching it
 * through index-terms.ts brought the generated model into what `npm run server` loads before it
 * regenerates that model (tests/unit/layers.test.ts).
 */
export const ANALYZER_VERSION = 1;
