import { lazy, Suspense, useState } from 'react';
import { useNotifications } from '@mantine/notifications';

// The toasts' component (transitions, portal, positions) and its stylesheet are not needed until
// the first notification: the sign-in page ships without them.
const Notifications = lazy(() => import('./notifications-view.tsx'));

/** docs/product-rules.md#constants: notifications close after 3000 ms. */
export const NOTIFICATION_MS = 3000;

/** Mounts Mantine's notifications once anything was shown; the store keeps what came before. */
export function NotificationsHost() {
  const { notifications } = useNotifications();
  const [used, setUsed] = useState(false);
  if (!used && notifications.length > 0) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" zIndex={5000} autoClose={NOTIFICATION_MS} />
    </Suspense>
  );
}
