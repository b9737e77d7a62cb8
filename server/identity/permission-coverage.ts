// The coverage rule lives in contract/ so the console decides with the same code (role delegation).
export { PermissionCoverage } from '../../contract/permissions/permission-coverage.ts';
