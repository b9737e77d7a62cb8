/**
 * Greetings and thanks ("Hola", "buenos días", "gracias", "hello", "thanks", ...) are no question
 * for the knowledge base: searched, they found nothing and the visitor read "No encuentro eso"
 * (issue 28). A message made only of such phrases gets a short friendly reply in its language, with
 * the bot's suggested questions, and counts as answered (trace ok, not no_answer).
 *
 * Recognised by whole phrases per language after folding case, accents and punctuation, so
 * "¡Hola, buenos días!" and "muchas gracias :)" are small talk, while "hola, ¿cómo devuelvo un
 * pedido?" still is a question: any word left over makes it one.
 */
type Kind = 'greeting' | 'thanks';

interface SmallTalkLanguage {
  greetings: string[];
  thanks: string[];
  /** Words that may accompany a phrase without making the message a question ("hola a todos"). */
  fillers?: string[];
  greetingReply: string;
  thanksReply: string;
  /** Introduces the suggested questions. */
  suggestions: string;
}

/** Every language the replies speak, keyed by ISO 639-1; a missing key is a programming error. */
export const SMALL_TALK: Readonly<Record<string, SmallTalkLanguage>> = {
  es: {
    greetings: ['hola', 'holi', 'buenas', 'buenos dias', 'buenas tardes', 'buenas noches', 'hey', 'que tal', 'saludos', 'hola que tal', 'como estas'],
    thanks: ['gracias', 'muchas gracias', 'mil gracias', 'muchisimas gracias', 'gracias por todo', 'adios', 'hasta luego', 'chao', 'perfecto gracias', 'vale gracias', 'ok gracias'],
    fillers: ['a todos', 'amigo', 'bot'],
    greetingReply: '¡Hola! ¿En qué puedo ayudarte?',
    thanksReply: '¡De nada! Si necesitas algo más, aquí estoy.',
    suggestions: 'Puedes preguntarme, por ejemplo:',
  },
  en: {
    greetings: ['hello', 'hi', 'hey', 'hi there', 'hello there', 'good morning', 'good afternoon', 'good evening', 'greetings', 'howdy', 'how are you'],
    thanks: ['thanks', 'thank you', 'thanks a lot', 'thank you very much', 'many thanks', 'thx', 'cheers', 'bye', 'goodbye', 'ok thanks', 'great thanks'],
    fillers: ['all', 'everyone'],
    greetingReply: 'Hello! How can I help you?',
    thanksReply: "You're welcome! If you need anything else, I'm here.",
    suggestions: 'You can ask me, for example:',
  },
  de: {
    greetings: ['hallo', 'guten tag', 'guten morgen', 'guten abend', 'servus', 'moin', 'hi', 'gruss gott', 'wie geht es dir', 'wie gehts'],
    thanks: ['danke', 'danke schon', 'vielen dank', 'danke sehr', 'herzlichen dank', 'tschuss', 'auf wiedersehen'],
    greetingReply: 'Hallo! Wie kann ich helfen?',
    thanksReply: 'Gern geschehen! Wenn Sie noch etwas brauchen, bin ich da.',
    suggestions: 'Sie können mich zum Beispiel fragen:',
  },
  fr: {
    greetings: ['bonjour', 'bonsoir', 'salut', 'coucou', 'bonjour a tous', 'comment ca va', 'ca va'],
    thanks: ['merci', 'merci beaucoup', 'merci bien', 'mille mercis', 'au revoir', 'bonne journee'],
    greetingReply: 'Bonjour ! Comment puis-je vous aider ?',
    thanksReply: "Avec plaisir ! Si vous avez besoin d'autre chose, je suis là.",
    suggestions: 'Vous pouvez me demander, par exemple :',
  },
  it: {
    greetings: ['ciao', 'buongiorno', 'buonasera', 'salve', 'come stai'],
    thanks: ['grazie', 'grazie mille', 'molte grazie', 'arrivederci'],
    greetingReply: 'Ciao! Come posso aiutarti?',
    thanksReply: 'Prego! Se ti serve altro, sono qui.',
    suggestions: 'Puoi chiedermi, per esempio:',
  },
  pt: {
    greetings: ['ola', 'oi', 'bom dia', 'boa tarde', 'boa noite', 'tudo bem'],
    thanks: ['obrigado', 'obrigada', 'muito obrigado', 'muito obrigada', 'valeu', 'tchau', 'ate logo'],
    greetingReply: 'Olá! Como posso ajudar?',
    thanksReply: 'De nada! Se precisar de mais alguma coisa, estou aqui.',
    suggestions: 'Você pode me perguntar, por exemplo:',
  },
  ro: {
    greetings: ['salut', 'buna', 'buna ziua', 'buna dimineata', 'buna seara', 'ce faci'],
    thanks: ['multumesc', 'multumesc mult', 'mersi', 'la revedere'],
    greetingReply: 'Bună! Cu ce vă pot ajuta?',
    thanksReply: 'Cu plăcere! Dacă mai aveți nevoie de ceva, sunt aici.',
    suggestions: 'Mă puteți întreba, de exemplu:',
  },
  ru: {
    greetings: ['привет', 'здравствуйте', 'добрый день', 'доброе утро', 'добрый вечер', 'как дела'],
    thanks: ['спасибо', 'большое спасибо', 'благодарю', 'до свидания', 'пока'],
    greetingReply: 'Здравствуйте! Чем могу помочь?',
    thanksReply: 'Пожалуйста! Если нужно что-то ещё, я здесь.',
    suggestions: 'Вы можете спросить, например:',
  },
  tr: {
    greetings: ['merhaba', 'selam', 'gunaydin', 'iyi gunler', 'iyi aksamlar', 'nasilsin'],
    thanks: ['tesekkurler', 'tesekkur ederim', 'cok tesekkurler', 'sagol', 'sag ol', 'hosca kal', 'gorusuruz'],
    greetingReply: 'Merhaba! Size nasıl yardımcı olabilirim?',
    thanksReply: 'Rica ederim! Başka bir şeye ihtiyacınız olursa buradayım.',
    suggestions: 'Örneğin şunları sorabilirsiniz:',
  },
  ar: {
    greetings: ['مرحبا', 'اهلا', 'السلام عليكم', 'صباح الخير', 'مساء الخير', 'اهلا وسهلا'],
    thanks: ['شكرا', 'شكرا جزيلا', 'مع السلامة'],
    greetingReply: 'مرحبًا! كيف يمكنني مساعدتك؟',
    thanksReply: 'عفوًا! إذا احتجت إلى أي شيء آخر فأنا هنا.',
    suggestions: 'يمكنك أن تسألني مثلًا:',
  },
  el: {
    greetings: ['γεια', 'γεια σας', 'γεια σου', 'καλημερα', 'καλησπερα', 'τι κανεις'],
    thanks: ['ευχαριστω', 'ευχαριστω πολυ', 'αντιο'],
    greetingReply: 'Γεια σας! Πώς μπορώ να βοηθήσω;',
    thanksReply: 'Παρακαλώ! Αν χρειαστείτε κάτι άλλο, είμαι εδώ.',
    suggestions: 'Μπορείτε να με ρωτήσετε, για παράδειγμα:',
  },
  hi: {
    greetings: ['नमस्ते', 'नमस्कार', 'हेलो', 'सुप्रभात'],
    thanks: ['धन्यवाद', 'शुक्रिया', 'बहुत धन्यवाद', 'बहुत बहुत धन्यवाद'],
    greetingReply: 'नमस्ते! मैं आपकी कैसे मदद कर सकता हूँ?',
    thanksReply: 'आपका स्वागत है! कुछ और चाहिए तो मैं यहाँ हूँ।',
    suggestions: 'आप मुझसे पूछ सकते हैं, जैसे:',
  },
  vi: {
    greetings: ['xin chao', 'chao', 'chao ban', 'chao buoi sang'],
    thanks: ['cam on', 'cam on ban', 'cam on nhieu', 'tam biet'],
    greetingReply: 'Xin chào! Tôi có thể giúp gì cho bạn?',
    thanksReply: 'Không có gì! Nếu bạn cần thêm gì, tôi luôn ở đây.',
    suggestions: 'Bạn có thể hỏi tôi, ví dụ:',
  },
  zh: {
    greetings: ['你好', '您好', '早上好', '晚上好', '哈喽', '嗨'],
    thanks: ['谢谢', '多谢', '非常感谢', '谢谢你', '再见'],
    greetingReply: '你好！有什么可以帮你的吗？',
    thanksReply: '不客气！如果还需要什么，我随时都在。',
    suggestions: '你可以问我，例如：',
  },
  ja: {
    greetings: ['こんにちは', 'こんばんは', 'おはよう', 'おはようございます', 'はじめまして'],
    thanks: ['ありがとう', 'ありがとうございます', 'どうもありがとう', 'さようなら'],
    greetingReply: 'こんにちは！どのようなご用件でしょうか？',
    thanksReply: 'どういたしまして！ほかにも何かあれば、お気軽にどうぞ。',
    suggestions: 'たとえば、次のように質問できます：',
  },
  ko: {
    greetings: ['안녕하세요', '안녕', '반갑습니다'],
    thanks: ['감사합니다', '고맙습니다', '고마워요', '감사해요', '안녕히 계세요'],
    greetingReply: '안녕하세요! 무엇을 도와드릴까요?',
    thanksReply: '천만에요! 더 필요한 것이 있으면 언제든지 말씀해 주세요.',
    suggestions: '예를 들어 이렇게 물어볼 수 있어요:',
  },
  th: {
    greetings: ['สวัสดี', 'สวัสดีครับ', 'สวัสดีค่ะ', 'หวัดดี'],
    thanks: ['ขอบคุณ', 'ขอบคุณครับ', 'ขอบคุณค่ะ', 'ขอบคุณมาก', 'ขอบคุณมากครับ', 'ขอบคุณมากค่ะ'],
    greetingReply: 'สวัสดีค่ะ มีอะไรให้ช่วยไหมคะ',
    thanksReply: 'ยินดีค่ะ หากต้องการอะไรเพิ่มเติม บอกได้เลยนะคะ',
    suggestions: 'ตัวอย่างคำถาม:',
  },
};

/** Longer messages are questions, whatever they start with. */
const MAX_SMALL_TALK_CHARS = 60;
const MAX_SUGGESTIONS = 3;

interface Phrase {
  words: string[];
  language: string;
  kind: Kind;
}

/** Phrases longest first, so "muchas gracias" is taken before "gracias". */
const PHRASES: Phrase[] = Object.entries(SMALL_TALK)
  .flatMap(([language, entry]) => [
    ...entry.greetings.map((p) => ({ words: normalise(p), language, kind: 'greeting' as const })),
    ...entry.thanks.map((p) => ({ words: normalise(p), language, kind: 'thanks' as const })),
  ])
  .sort((a, b) => b.words.length - a.words.length);
const FILLERS = new Map(Object.entries(SMALL_TALK).map(([language, entry]) => [language, (entry.fillers ?? []).map(normalise)]));

/** What a message is when it is only small talk (the last phrase decides: "hola, gracias" thanks). */
export function smallTalkOf(message: string, botName = ''): { kind: Kind; language: string } | null {
  if (message.length > MAX_SMALL_TALK_CHARS) return null;
  const words = normalise(message);
  if (words.length === 0) return null;
  const name = normalise(botName);
  let found: Phrase | null = null;
  let i = 0;
  outer: while (i < words.length) {
    for (const phrase of PHRASES) {
      if (phrase.words.every((w, k) => words[i + k] === w)) {
        found = phrase;
        i += phrase.words.length;
        continue outer;
      }
    }
    if (found) {
      const skip = [...(FILLERS.get(found.language) ?? []), ...(name.length > 0 ? [name] : [])].find((filler) => filler.every((w, k) => words[i + k] === w));
      if (skip) {
        i += skip.length;
        continue;
      }
    }
    return null;
  }
  return found ? { kind: found.kind, language: found.language } : null;
}

/** The reply to a small-talk message, or null when the message is a question. */
export function smallTalkReply(message: string, suggestedQuestions: readonly string[], botName = ''): string | null {
  const talk = smallTalkOf(message, botName);
  if (!talk) return null;
  const entry = SMALL_TALK[talk.language];
  if (!entry) throw new Error(`No small-talk replies for language "${talk.language}": add it to SMALL_TALK in server/chat/small-talk-reply.ts`);
  const reply = talk.kind === 'greeting' ? entry.greetingReply : entry.thanksReply;
  const questions = suggestedQuestions.map((q) => q.trim()).filter(Boolean).slice(0, MAX_SUGGESTIONS);
  if (questions.length === 0) return reply;
  return `${reply}\n\n${entry.suggestions}\n${questions.map((q) => `- ${q}`).join('\n')}`;
}

/** Lower case, accents and punctuation gone, words; Thai, Chinese and Japanese have no spaces: one word. */
function normalise(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}
