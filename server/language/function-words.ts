import type { Language } from './language-analyzers.ts';

/**
 * The most frequent function words of each language: articles, prepositions, pronouns, auxiliaries
 * and question words. Short lists of similar size on purpose: detection (detect-language.ts) weighs
 * them without one language winning by the length of its list, and the analyzers drop them, so a
 * question that shares only "the" or "de" with a chunk matches nothing (an honest "I don't know").
 * Content words ("long", "help", "back") are never listed: large stop lists lost answers.
 * Chinese, Japanese, Korean and Thai have none (bigrams), Spanish uses its own analyzer's list.
 */
export const FUNCTION_WORDS: Readonly<Partial<Record<Language, string>>> = {
  es: 'a el la los las del y de que en un una por con no es se su sus para al lo como más pero muy sin también me mi tu te hay está están cómo qué cuándo dónde cuánto cuál ha han fue',
  en: 'the a an and of to in is are was for with on at by from it this that these you your my i me we our can do does did how what when where which who will be been not or if has have had were',
  de: 'der die das und ist in zu den dem des ein eine einen nicht mit von für auf im ich sie wir es kann wie wann wo was welche mein meine ihr ihre bei nach oder aber auch wer hat haben hatte sind war wird werden',
  fr: 'le la les de des du un une et est en que qui pour avec pas ne sur dans au aux je vous nous mon ma mes comment quand où combien puis il elle ce cette à a ont été sont qu',
  it: 'il i in da lo la gli le di del della dei delle che è un una per con non sono come quando dove quanto mio mia anche più ma ho hai al alla nel nella a ha hanno chi stato',
  pt: 'o os as de que do da dos das no na nos nas um uma com não é são em ao pelo pela você eu meu minha como quando onde quanto está também mais mas ou a tem foi quem ser',
  ro: 'și de la în cu pe un o este sunt care ce nu din pentru al ale mai cum când unde cât meu mea după sau dar se a',
  tr: 've bir bu da de için ile ne mi mı mu mü nasıl nerede zaman kadar var yok ben siz biz çok daha gibi olarak sonra veya ama her hangi',
  ru: 'и в во не что на я с со как а то все но да к у же вы за бы по ли если или до для мы их чем без под кто этот это мой при об после над через эти про мне меня вас ваш был была было были',
  el: 'και το η ο οι τα του της των τον την σε στο στη στον στην με για από να θα δεν είναι ένα μια που πώς πού πότε τι ποιος μου σας',
  ar: 'في من إلى على عن مع هذا هذه ذلك التي الذي هل ما ماذا كيف متى أين أن إن لا لم كان و أو ثم',
  hi: 'का के की है हैं में से को और पर यह वह एक कि तो भी नहीं क्या कैसे कब कहां मैं मेरा मेरी आप हम था थे',
  vi: 'và của là có không được cho các những một trong với này đó thì để khi ở tôi bạn chúng gì nào sao',
};

/**
 * Words that only shape a question ("how long", "wie lange", "how much"): no evidence that a chunk
 * answers, so left out of the score like the function words, but not of detection (above), whose
 * lists are balanced on purpose. Kept in the index and the rank, where they cost nothing.
 */
export const QUESTION_SHAPERS: Readonly<Partial<Record<Language, string>>> = {
  en: 'long much many often',
  de: 'lange viel viele oft',
  fr: 'longtemps',
  it: 'quanti quante quanta',
  pt: 'quantos quantas quanta',
  ro: 'mult multe câte câți',
  ru: 'сколько долго',
  el: 'πόσο πόσα πόσες πόσοι πόση',
  tr: 'kaç',
};

/** What an analyzer leaves out of the score: function words and question shapers. */
export function scoreStopWords(language: Language): string {
  return `${FUNCTION_WORDS[language] ?? ''} ${QUESTION_SHAPERS[language] ?? ''}`.trim();
}
