/**
 * Bounds of the number settings (docs/product-rules.md#validation Settings): what PATCH /api/settings/:id and the console's
 * edit dialog both refuse (validate-setting-value.ts reads them by key). A number setting missing
 * here only has to be a number; give every new one its bounds, or a timeout of -5 ms is accepted.
 */
export interface SettingNumberRule {
  min?: number;
  max?: number;
  integer?: boolean;
  /** An empty value (which clears the setting to null) is refused. */
  required?: boolean;
}

export const SETTING_NUMBER_RULES: Record<string, SettingNumberRule> = {
  // One attempt at the model: at least 1 ms, at most 10 minutes, whole milliseconds.
  'llm.timeoutMs': { min: 1, max: 600_000, integer: true, required: true },
  // A TCP port; empty falls back to the default SMTP port.
  'smtp.port': { min: 1, max: 65_535, integer: true },
};
