import { useEffect, useState } from 'react';
import { api } from '../session/session.ts';
import { fallbackOptions, loadPublicOptions, type PublicOptions } from './public-options.ts';

const envClientId = (import.meta.env.VITE_GOOGLE_CLIENT_ID as string | undefined) ?? null;

/** Options read this recently are not read again (the screens that ask follow one another). */
const FRESH_MS = 60_000;

// A module cache, not the query client: the sign-in page is the one screen that ships without
// TanStack Query (entry chunk), and this read is all it would use it for.
let cached: { at: number; options: PublicOptions } | null = null;
let inflight: Promise<PublicOptions> | null = null;

function readPublicOptions(): Promise<PublicOptions> {
  inflight ??= loadPublicOptions(api, envClientId)
    .then((options) => {
      cached = { at: Date.now(), options };
      return options;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

export function usePublicOptions(): PublicOptions {
  const [options, setOptions] = useState<PublicOptions | null>(() => cached?.options ?? null);
  useEffect(() => {
    if (cached && Date.now() - cached.at < FRESH_MS) return;
    let live = true;
    // loadPublicOptions never rejects: it falls back to the defaults.
    void readPublicOptions().then((read) => live && setOptions(read));
    return () => {
      live = false;
    };
  }, []);
  return options ?? { ...fallbackOptions(envClientId), recovery: false };
}
