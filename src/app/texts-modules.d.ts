// Spanish texts split for loading (scripts/texts-chunks.ts).
declare module 'virtual:forja/texts-es-boot' {
  const texts: Record<string, unknown>;
  export default texts;
}
declare module 'virtual:forja/texts-es-rest' {
  const texts: Record<string, unknown>;
  export default texts;
}
