// Shared with the console (contract/permissions/permission-coverage.ts).
export { allPermissions } from '../../contract/permissions/permission-coverage.ts';
