import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** Mantine's notifications with their stylesheet: the chunk NotificationsHost loads on first use. */
export default Notifications;
