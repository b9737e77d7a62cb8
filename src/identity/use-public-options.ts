import { useQuery } from '@tanstack/react-query';
import { api } from '../session/session.ts';
import { fallbackOptions, loadPublicOptions, type PublicOptions } from './public-options.ts';

const envClientId = (import.meta.env.VITE_GOOGLE_CLIENT_ID as string | undefined) ?? null;

export function usePublicOptions(): PublicOptions {
  const query = useQuery({ queryKey: ['public-options'], queryFn: () => loadPublicOptions(api, envClientId), staleTime: 60_000 });
  return query.data ?? { ...fallbackOptions(envClientId), recovery: false };
}
