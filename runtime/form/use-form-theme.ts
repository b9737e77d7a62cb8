import { useOptionalRuntime } from '../context/runtime-context.tsx';
import { baseFormTheme, type FormTheme } from './form-theme.ts';

/** The app's form theme (RuntimeServices.formTheme), or the base one. */
export function useFormTheme(): FormTheme {
  return useOptionalRuntime()?.formTheme ?? baseFormTheme;
}
