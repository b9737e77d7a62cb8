import '@mantine/dates/styles.css';
import { DateTimePicker } from '@mantine/dates';

/**
 * Mantine's date-time picker with its stylesheet: the stylesheet comes with the first screen that
 * shows a date input, not with the entry (the sign-in page has none).
 */
export default DateTimePicker;
