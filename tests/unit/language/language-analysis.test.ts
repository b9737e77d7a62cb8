import { describe, expect, it } from 'vitest';
import { analyzerOf, LANGUAGES } from '../../../server/language/language-analyzers.ts';
import { detectLanguage, detectLanguageOrNull } from '../../../server/language/detect-language.ts';
import { spanishTerms } from '../../../server/language/spanish-analyzer.ts';
import { chunkTerms, encodeTerm, queryTerms } from '../../../server/rag/search/index-terms.ts';
import { QA_LANGUAGES, readQaSet } from '../../helpers/multilingual-retrieval.ts';

describe('language detection', () => {
  it('names the language of every paragraph of the question sets', () => {
    for (const language of QA_LANGUAGES) {
      for (const item of readQaSet(language).items) expect(detectLanguage(item.context, 'es'), item.context).toBe(language);
    }
  });

  it('never names a wrong language for a question: it is right, or says it cannot tell (null)', () => {
    let right = 0;
    let total = 0;
    for (const language of QA_LANGUAGES) {
      for (const item of readQaSet(language).items) {
        for (const question of item.questions) {
          total++;
          const found = detectLanguageOrNull(question);
          if (found === language) right++;
          else expect(found, `${language}: ${question}`).toBeNull();
        }
      }
    }
    expect(right / total).toBeGreaterThan(0.95);
  });

  it('falls back when the text says too little or is in a script it does not analyse', () => {
    for (const text of ['', '   ', '12345 67', 'iPhone 15', '!!!', 'ქართული ენა მშვენიერია', 'Ꭰ Ꭱ Ꭲ']) {
      expect(detectLanguage(text, 'ko'), text).toBe('ko');
      expect(detectLanguageOrNull(text), text).toBeNull();
    }
  });

  it('reads a bounded sample of a long text, so a chunk of any size costs the same', () => {
    const english = 'The order will be shipped with the tracking number. '.repeat(200);
    const huge = english + 'Der Versand ist kostenlos und die Rechnung kommt per E-Mail. '.repeat(100_000);
    expect(detectLanguage(huge, 'es')).toBe('en');
  });
});

describe('language analyzers', () => {
  it('has one analyzer per language and fails loudly on a missing one', () => {
    for (const language of LANGUAGES) expect(typeof analyzerOf(language).terms).toBe('function');
    expect(() => analyzerOf('xx' as never)).toThrow(/No analyzer for language "xx".*LANGUAGE_ANALYZERS/);
  });

  it('keeps Spanish exactly as before languages (indexes trained then stay valid)', () => {
    for (const text of ['¿Cuál es la política de devoluciones?', 'Información y envíos internacionales', 'niño año pingüino']) {
      expect(analyzerOf('es').terms(text)).toEqual(spanishTerms(text));
    }
  });

  it('stems by language: inflected forms meet', () => {
    const same = (language: Parameters<typeof analyzerOf>[0], a: string, b: string) =>
      expect(analyzerOf(language).terms(a), `${language}: ${a} / ${b}`).toEqual(analyzerOf(language).terms(b));
    same('en', 'payments', 'payment');
    same('de', 'Rechnungen', 'Rechnung');
    same('fr', 'commandes', 'commande');
    same('it', 'garanzie', 'garanzia');
    same('pt', 'pedidos', 'pedido');
    same('ru', 'заказы', 'заказ');
    same('tr', 'siparişler', 'sipariş');
  });

  it('never folds marks where they tell words apart (Vietnamese, Hindi)', () => {
    const vi = analyzerOf('vi').terms('ma mà má mả mã mạ');
    expect(new Set(vi).size).toBe(6);
    expect(analyzerOf('hi').terms('किताबें')).toEqual(['किताब']);
    // The vowel signs stay inside the word: one term, not pieces.
    expect(analyzerOf('hi').terms('जानकारी')).toHaveLength(1);
  });

  it('cuts Chinese, Japanese, Korean and Thai into overlapping bigrams, keeping Latin words whole', () => {
    expect(analyzerOf('zh').terms('退货政策')).toEqual(['退货', '货政', '政策']);
    expect(analyzerOf('zh').terms('iPhone退货')).toEqual(['iphone', '退货']);
    expect(analyzerOf('ja').terms('返品')).toEqual(['返品']);
    expect(analyzerOf('ko').terms('반품 정책')).toEqual(['반품', '정책']);
    expect(analyzerOf('th').terms('คืนสินค้า').length).toBeGreaterThan(3);
    // A single character of such a script is still a term.
    expect(analyzerOf('zh').terms('书')).toEqual(['书']);
  });

  it('indexes text of any script, by its words, whatever language it is analysed in', () => {
    for (const language of LANGUAGES) {
      expect(analyzerOf(language).terms('ქართული ენა').length, language).toBeGreaterThan(0);
    }
  });

  it('lower-cases Turkish as Turkish (İ is i, I is ı)', () => {
    expect(analyzerOf('tr').terms('İADE')).toEqual(analyzerOf('tr').terms('iade'));
  });
});

describe('stored terms', () => {
  it('are plain ASCII words both engines keep whole', () => {
    for (const language of QA_LANGUAGES) {
      const stored = chunkTerms(readQaSet(language).items[0].context, language);
      expect(stored, language).toMatch(/^[a-z0-9]+( [a-z0-9]+)*$/);
    }
    expect(encodeTerm('devolu')).toBe('devolu');
    expect(encodeTerm('退货')).toMatch(/^zz[a-z0-9]+$/);
    expect(encodeTerm('mà')).not.toBe(encodeTerm('ma'));
    expect(encodeTerm('mà')).not.toBe(encodeTerm('má'));
  });

  it('a question is analysed in its own language when the base holds it, else in the base languages too', () => {
    // English in an English and Spanish base: English terms only.
    const english = queryTerms('How do I track my order?', ['en', 'es']);
    expect(english.terms).toEqual(analyzerOf('en').terms('How do I track my order?').map(encodeTerm).filter((t, i, a) => a.indexOf(t) === i));
    // Function words rank but are marked, so they are never evidence of an answer.
    expect([...english.functionTerms].sort()).toEqual(['do', 'how', 'i', 'my']);
    // A question that does not tell its language: every language of the base.
    expect(queryTerms('PayPal 300', ['en', 'es']).terms).toContain('paypal');
    // Bounded whatever the question's length.
    expect(queryTerms('palabra '.repeat(5000) + Array.from({ length: 500 }, (_, i) => `w${i}`).join(' '), ['es']).terms.length).toBeLessThanOrEqual(64);
  });
});
