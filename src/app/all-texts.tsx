import { use, type ReactNode } from 'react';
import { loadAllTexts } from './i18n.ts';

/** Renders its children once every Spanish text is loaded (suspends until then; src/app/boot-texts.ts). */
export function AllTexts({ children }: { children: ReactNode }) {
  use(loadAllTexts());
  return <>{children}</>;
}
