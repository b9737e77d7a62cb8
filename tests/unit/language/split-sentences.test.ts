import { describe, expect, it } from 'vitest';
import type { Language } from '../../../server/language/language-analyzers.ts';
import { splitSentences } from '../../../server/language/split-sentences.ts';

/** Sentence segmentation for extractive answers: ICU plus the rules Node's ICU lacks (issue 28 item 3). */
const sentences = (text: string, language: Language) => splitSentences(text, language).filter((s) => !s.heading).map((s) => s.text);

describe('splitSentences', () => {
  it.each<[Language, string, string[]]>([
    ['en', 'Visit us at 5 St. Mark Street. It opens at nine.', ['Visit us at 5 St. Mark Street.', 'It opens at nine.']],
    ['en', 'Ask Mr. Smith or Dr. Jones. They answer by phone.', ['Ask Mr. Smith or Dr. Jones.', 'They answer by phone.']],
    ['en', 'Use a coupon, e.g. SPRING10. It works once.', ['Use a coupon, e.g. SPRING10.', 'It works once.']],
    ['en', 'Write to J. R. Miller. He replies in a day.', ['Write to J. R. Miller.', 'He replies in a day.']],
    ['es', 'El Sr. García y la Sra. López atienden. Llámalos.', ['El Sr. García y la Sra. López atienden.', 'Llámalos.']],
    ['es', 'Hay descuentos, p. ej. en verano. Consulta la tabla.', ['Hay descuentos, p. ej. en verano.', 'Consulta la tabla.']],
    ['es', 'Lo explica la pág. 5 del manual. Léela.', ['Lo explica la pág. 5 del manual.', 'Léela.']],
    ['es', 'Lo dice el art. 3 de las condiciones. Es claro.', ['Lo dice el art. 3 de las condiciones.', 'Es claro.']],
    ['de', 'Wir liefern z. B. nach Österreich. Das dauert länger.', ['Wir liefern z. B. nach Österreich.', 'Das dauert länger.']],
    ['de', 'Am 1. Januar ist geschlossen. Sonst immer offen.', ['Am 1. Januar ist geschlossen.', 'Sonst immer offen.']],
    ['de', 'Die Filiale ist in der Hauptstr. 5 in Berlin. Kommen Sie vorbei.', ['Die Filiale ist in der Hauptstr. 5 in Berlin.', 'Kommen Sie vorbei.']],
    ['de', 'Der Versand kostet ca. 5 Euro, bzw. Express 9 Euro. Danke.', ['Der Versand kostet ca. 5 Euro, bzw. Express 9 Euro.', 'Danke.']],
    ['fr', 'M. Dupont répond au téléphone. Mme Martin aussi.', ['M. Dupont répond au téléphone.', 'Mme Martin aussi.']],
    ['fr', 'Certains frais, p. ex. la livraison, sont offerts. Voilà.', ['Certains frais, p. ex. la livraison, sont offerts.', 'Voilà.']],
  ])('%s: abbreviations and initials do not end a sentence: %s', (language, text, want) => {
    expect(sentences(text, language)).toEqual(want);
  });

  it.each<[Language, string, string[]]>([
    ['en', 'The fee is 3.5 euros. It is charged once.', ['The fee is 3.5 euros.', 'It is charged once.']],
    ['en', 'Version 2.10.3 fixed it. Update now.', ['Version 2.10.3 fixed it.', 'Update now.']],
    ['es', 'El envío cuesta 3,5 €. Es gratis desde 50.', ['El envío cuesta 3,5 €.', 'Es gratis desde 50.']],
    ['de', 'Der Preis ist 12.50 Euro. Er gilt heute.', ['Der Preis ist 12.50 Euro.', 'Er gilt heute.']],
  ])('%s: decimals stay inside their sentence: %s', (language, text, want) => {
    expect(sentences(text, language)).toEqual(want);
  });

  it('joins PDF hard line breaks inside a sentence, and a word hyphenated across the break', () => {
    expect(sentences('Puedes devolver cualquier producto en los\n30 días siguientes a la entrega. El reembolso se\nabona en cinco días.', 'es')).toEqual([
      'Puedes devolver cualquier producto en los 30 días siguientes a la entrega.',
      'El reembolso se abona en cinco días.',
    ]);
    expect(sentences('Refunds are paid to the original payment method within five busi-\nness days after the warehouse inspects the item.', 'en')).toEqual([
      'Refunds are paid to the original payment method within five business days after the warehouse inspects the item.',
    ]);
    // A long line that stops mid-sentence was wrapped, even when the next line starts with a capital.
    expect(sentences('Your order leaves the warehouse and you receive an email from\nDHL with the tracking number.', 'en')).toEqual([
      'Your order leaves the warehouse and you receive an email from DHL with the tracking number.',
    ]);
  });

  it('keeps list items, paragraphs and headings apart', () => {
    const parts = splitSentences('Envíos\nEl envío estándar tarda tres días.\n\n- Entrega urgente al día siguiente\n- Recogida en tienda gratis\n1. Paga con tarjeta', 'es');
    expect(parts).toEqual([
      { text: 'Envíos', heading: true },
      { text: 'El envío estándar tarda tres días.', heading: false },
      { text: 'Entrega urgente al día siguiente', heading: false },
      { text: 'Recogida en tienda gratis', heading: false },
      { text: 'Paga con tarjeta', heading: false },
    ]);
    // A finished sentence followed by a capitalised line: two sentences, not one.
    expect(sentences('Abrimos a las nueve.\nCerramos a las seis.', 'es')).toEqual(['Abrimos a las nueve.', 'Cerramos a las seis.']);
  });

  it.each<[Language, string, string[]]>([
    ['zh', '退货期限为30天。请保留原包装！有问题吗？我们会处理', ['退货期限为30天。', '请保留原包装！', '有问题吗？', '我们会处理']],
    ['ja', '返品は30日以内です。元の梱包を保管してください！質問はありますか？', ['返品は30日以内です。', '元の梱包を保管してください！', '質問はありますか？']],
    ['zh', '运费是3.5元。满50元包邮。', ['运费是3.5元。', '满50元包邮。']],
    ['ko', '배송은 3일 걸립니다. 무료입니다!', ['배송은 3일 걸립니다.', '무료입니다!']],
  ])('%s: CJK sentence marks 。！？ end sentences: %s', (language, text, want) => {
    expect(sentences(text, language)).toEqual(want);
  });

  it('splits Thai at the spaces between Thai words, not at the spaces around numbers or Latin words', () => {
    expect(sentences('คุณสามารถคืนสินค้าได้ภายใน 30 วัน หากยังไม่ได้ใช้งาน เงินคืนจะเข้าบัญชีภายในห้าวันทำการ', 'th')).toEqual([
      'คุณสามารถคืนสินค้าได้ภายใน 30 วัน',
      'หากยังไม่ได้ใช้งาน',
      'เงินคืนจะเข้าบัญชีภายในห้าวันทำการ',
    ]);
    expect(sentences('ชำระผ่าน PayPal ได้ จัดส่งฟรี', 'th')).toEqual(['ชำระผ่าน PayPal ได้', 'จัดส่งฟรี']);
  });

  it('ends a sentence at a real full stop after a number or a capitalised word', () => {
    expect(sentences('We ship to 27 countries. Delivery takes 3 days.', 'en')).toEqual(['We ship to 27 countries.', 'Delivery takes 3 days.']);
    expect(sentences('Wir liefern in 27 Länder. Die Lieferung dauert 3 Tage.', 'de')).toEqual(['Wir liefern in 27 Länder.', 'Die Lieferung dauert 3 Tage.']);
    expect(sentences('Llamamos al cliente. Después enviamos el pedido.', 'es')).toEqual(['Llamamos al cliente.', 'Después enviamos el pedido.']);
  });

  it('returns nothing for text without letters or digits', () => {
    expect(splitSentences('', 'es')).toEqual([]);
    expect(splitSentences(' \n\n - \n', 'en')).toEqual([]);
  });
});
