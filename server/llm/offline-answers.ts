/**
 * The two fixed answers of the default bot prompts (docs/product-rules.md#entities, Bot). The offline provider
 * gives them when it has nothing to extract; the prompt builder passes them on as context.
 */
export const NO_INFORMATION_ANSWER = 'No tengo información para responder a eso.';
export const OFF_TOPIC_ANSWER = 'No puedo ayudarte con eso.';
