/**
 * The two fixed answers of the default bot prompts (product spec §3, Bot). The offline provider
 * gives them when it has nothing to extract; the prompt builder passes them on as context.
 */
export const NO_INFORMATION_ANSWER = 'No tengo información para responder a eso.';
export const OFF_TOPIC_ANSWER = 'No puedo ayudarte con eso.';
