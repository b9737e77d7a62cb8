import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { onSessionEvent } from '../session/session-events.ts';

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

// Whatever one user loaded must not leak into the next session.
onSessionEvent((event) => {
  if (event === 'logout' || event === 'login-success') queryClient.clear();
});

/**
 * TanStack Query for the screens that fetch through it: every screen but the sign-in page, which
 * ships without it (router.tsx). One client for the whole console, created with this chunk.
 */
export default function WithQueryClient({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
