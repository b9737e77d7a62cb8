/** Per-call timeouts of docs/product-rules.md#constants, in milliseconds. */
export const REQUEST_TIMEOUTS = {
  /** Every call unless it says otherwise. */
  default: 10_000,
  /** File uploads and imports: large multipart bodies. */
  upload: 360_000,
  /** Knowledge train / parse / improve / chunk: LLM and embedding work. */
  knowledge: 1_800_000,
  /** Google login / logout round trips. */
  google: 120_000,
} as const;
