import { queryTerms } from '../server/rag/search/index-terms.ts';
import { detectLanguageOrNull } from '../server/language/detect-language.ts';
for (const q of ['When can I call customer service?','Can I get help on Saturday?']) console.log(detectLanguageOrNull(q, 'en'), queryTerms(q, ['en']));
