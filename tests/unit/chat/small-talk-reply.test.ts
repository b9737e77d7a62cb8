import { describe, expect, it } from 'vitest';
import { SMALL_TALK, smallTalkOf, smallTalkReply } from '../../../server/chat/small-talk-reply.ts';

/** Greetings and thanks get a friendly reply with the suggested questions, not "not found" (issue 28 item 2). */
describe('smallTalkOf', () => {
  it.each([
    ['Hola', 'es', 'greeting'],
    ['hola!!', 'es', 'greeting'],
    ['¡Buenos días!', 'es', 'greeting'],
    ['buenas tardes', 'es', 'greeting'],
    ['Hola, buenos días', 'es', 'greeting'],
    ['hola a todos', 'es', 'greeting'],
    ['Gracias', 'es', 'thanks'],
    ['¡Muchas gracias! :)', 'es', 'thanks'],
    ['hola, gracias', 'es', 'thanks'],
    ['Hello', 'en', 'greeting'],
    ['hi there!', 'en', 'greeting'],
    ['Good morning', 'en', 'greeting'],
    ['Thanks!', 'en', 'thanks'],
    ['thank you very much', 'en', 'thanks'],
    ['Guten Tag', 'de', 'greeting'],
    ['Danke schön', 'de', 'thanks'],
    ['Bonjour !', 'fr', 'greeting'],
    ['Merci beaucoup', 'fr', 'thanks'],
    ['Ciao', 'it', 'greeting'],
    ['Obrigada', 'pt', 'thanks'],
    ['Привет', 'ru', 'greeting'],
    ['Спасибо!', 'ru', 'thanks'],
    ['Teşekkürler', 'tr', 'thanks'],
    ['مرحبا', 'ar', 'greeting'],
    ['Ευχαριστώ', 'el', 'thanks'],
    ['नमस्ते', 'hi', 'greeting'],
    ['Xin chào', 'vi', 'greeting'],
    ['你好！', 'zh', 'greeting'],
    ['谢谢', 'zh', 'thanks'],
    ['こんにちは', 'ja', 'greeting'],
    ['ありがとうございます', 'ja', 'thanks'],
    ['안녕하세요', 'ko', 'greeting'],
    ['สวัสดีครับ', 'th', 'greeting'],
    ['ขอบคุณค่ะ', 'th', 'thanks'],
  ])('%s is small talk (%s, %s)', (message, language, kind) => {
    expect(smallTalkOf(message)).toEqual({ language, kind });
  });

  it.each([
    'Hola, ¿cuánto tarda el envío?',
    'hola quiero devolver un pedido',
    'Gracias, pero ¿y la factura?',
    'Hello, where is my order?',
    'thanks for nothing, my package is lost',
    '你好，我的包裹在哪里？',
    'Holanda',
    'ordenador',
    '',
    '   ',
    '¿?',
    'hola '.repeat(20),
  ])('%j is a question (or nothing), not small talk', (message) => {
    expect(smallTalkOf(message)).toBeNull();
  });

  it('lets the bot be greeted by its name', () => {
    expect(smallTalkOf('Hola Tienda', 'Tienda')).toEqual({ language: 'es', kind: 'greeting' });
    expect(smallTalkOf('Hola Tienda')).toBeNull();
  });
});

describe('smallTalkReply', () => {
  const questions = ['¿Cuánto tarda el envío?', '¿Cómo devuelvo un pedido?', '  ', '¿Qué horario tenéis?', '¿Aceptáis PayPal?'];

  it('greets in the visitor language and lists at most three suggested questions', () => {
    expect(smallTalkReply('Hola', questions)).toBe(
      `${SMALL_TALK.es.greetingReply}\n\n${SMALL_TALK.es.suggestions}\n- ¿Cuánto tarda el envío?\n- ¿Cómo devuelvo un pedido?\n- ¿Qué horario tenéis?`,
    );
    expect(smallTalkReply('Thanks!', questions)?.startsWith(SMALL_TALK.en.thanksReply)).toBe(true);
    expect(smallTalkReply('谢谢', [])).toBe(SMALL_TALK.zh.thanksReply);
    expect(smallTalkReply('¿Cuánto tarda el envío?', questions)).toBeNull();
  });

  it('has a reply and a suggestions line for every language it recognises', () => {
    for (const [language, entry] of Object.entries(SMALL_TALK)) {
      for (const text of [entry.greetingReply, entry.thanksReply, entry.suggestions]) expect(text.trim(), language).not.toBe('');
      for (const phrase of [...entry.greetings, ...entry.thanks]) expect(smallTalkOf(phrase)?.language, `${language}: ${phrase}`).toBeDefined();
    }
  });
});
