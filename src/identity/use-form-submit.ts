import { useState } from 'react';
import type { FieldErrors } from './form-rules.ts';
import { toFormFailure } from './server-errors.ts';

/**
 * The submit cycle the identity forms share: busy while the call runs, done once it succeeds,
 * and on failure the server's message (the red alert) and its per-field reasons (docs/product-rules.md#errors). A form
 * clears a field's reason itself as the user edits it (`setFields`).
 */
export function useFormSubmit() {
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<FieldErrors>({});

  async function run(call: () => Promise<unknown>): Promise<void> {
    setSubmitting(true);
    try {
      await call();
      setDone(true);
    } catch (failure) {
      const result = toFormFailure(failure);
      setError(result.message);
      setFields(result.fields);
    } finally {
      setSubmitting(false);
    }
  }

  return { submitting, done, error, fields, setFields, run };
}
