export { until, nextMillisecond } from '../../helpers/until.ts';
