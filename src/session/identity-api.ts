import type { RestCall } from '../../runtime/transport/rest-transport.ts';
import { REQUEST_TIMEOUTS } from '../../runtime/transport/request-timeouts.ts';
import type { SessionUser, Setting } from './session-types.ts';

/** The one seam the identity screens use for HTTP (RestTransport.call, or a fake in tests). */
export type Call = <R>(call: RestCall) => Promise<R>;

export interface RegistrationInput {
  username: string;
  name: string;
  email: string;
  phone: string;
  password: string;
  confirmPassword: string;
}

/** docs/product-rules.md#calls Identity, Users (password), Roles (permissions) and Settings calls. */
export function identityApi(call: Call) {
  return {
    login: (username: string, password: string) => call<{ accessToken: string }>({ method: 'POST', path: '/api/auth/login', json: { username, password } }),
    me: () => call<SessionUser>({ method: 'GET', path: '/api/auth/me' }),
    googleLogin: (credential: string) =>
      call<{ accessToken: string }>({ method: 'POST', path: '/api/google/login', json: { credential }, timeout: REQUEST_TIMEOUTS.google }),
    googleLogout: () => call<unknown>({ method: 'POST', path: '/api/google/logout', json: {}, timeout: REQUEST_TIMEOUTS.google }),
    changePassword: (currentPassword: string, newPassword: string) =>
      call<unknown>({ method: 'POST', path: '/api/users/password/change', json: { currentPassword, newPassword } }),
    adminChangePassword: (userId: string, newPassword: string) =>
      call<unknown>({ method: 'POST', path: `/api/users/password/change/${encodeURIComponent(userId)}`, json: { userId, newPassword } }),
    recoveryRequest: (email: string) => call<unknown>({ method: 'POST', path: '/api/users/password/recovery/request', json: { email } }),
    recoveryComplete: (recoveryCode: string, newPassword: string) =>
      call<unknown>({ method: 'POST', path: '/api/users/password/recovery/complete', json: { recoveryCode, newPassword } }),
    register: (input: RegistrationInput) => call<unknown>({ method: 'POST', path: '/api/users/register', json: input }),
    uploadAvatar: (file: File) => {
      const body = new FormData();
      body.append('file', file, file.name);
      return call<unknown>({ method: 'POST', path: '/api/users/avatar', body, timeout: REQUEST_TIMEOUTS.upload });
    },
    permissions: () => call<unknown>({ method: 'GET', path: '/api/permissions' }),
    /** The roles the signed-in user may give a user (contract/permissions/role-delegation.ts). */
    /** Every role with role:view, else the caller's managed roles, with their permissions (docs/product-rules.md#calls lookups). */
    rolesAll: () => call<Array<Record<string, unknown>>>({ method: 'GET', path: '/api/roles/all' }),
    assignableRoles: () => call<Array<{ _id: string; name: string }>>({ method: 'GET', path: '/api/roles/assignable' }),
    settings: () => call<Setting[] | { items: Setting[] }>({ method: 'GET', path: '/api/settings' }),
    settingsGrouped: () => call<unknown>({ method: 'GET', path: '/api/settings/grouped' }),
    publicSettings: () => call<unknown>({ method: 'GET', path: '/api/settings/public' }),
    updateSetting: (id: string, value: unknown) => call<Setting>({ method: 'PATCH', path: `/api/settings/${encodeURIComponent(id)}`, json: { value } }),
  };
}

export type IdentityApi = ReturnType<typeof identityApi>;
