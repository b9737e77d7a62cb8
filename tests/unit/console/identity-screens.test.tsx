import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../../runtime/transport/api-error.ts';
import { ConsoleHarness } from './console-harness.tsx';

const mocks = vi.hoisted(() => ({
  login: vi.fn(),
  changePassword: vi.fn(),
  recoveryRequest: vi.fn(),
  adminChangePassword: vi.fn(),
  publicSettings: vi.fn(),
  settings: vi.fn(),
}));

vi.mock('../../../src/session/session.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/session/session.ts')>();
  return {
    ...original,
    session: { ...original.session, login: mocks.login },
    api: { ...original.api, changePassword: mocks.changePassword, recoveryRequest: mocks.recoveryRequest, adminChangePassword: mocks.adminChangePassword, publicSettings: mocks.publicSettings, settings: mocks.settings },
  };
});

const { default: LoginPage } = await import('../../../src/identity/login-page.tsx');
const { default: PasswordChangePage } = await import('../../../src/identity/password-change-page.tsx');
const { default: RecoveryRequestPage } = await import('../../../src/identity/recovery-request-page.tsx');
const { default: RecoveryCompletePage } = await import('../../../src/identity/recovery-complete-page.tsx');
const { AdminPasswordDialog } = await import('../../../src/overrides/user/admin-password-dialog.tsx');
const { passwordDialog } = await import('../../../src/overrides/user/password-dialog-store.ts');

beforeEach(() => {
  for (const mock of Object.values(mocks)) mock.mockReset();
  mocks.publicSettings.mockResolvedValue({ 'auth.registrationEnabled': false, 'auth.recoveryEnabled': true });
});

describe('login page', () => {
  it('enables submit only with both fields non-blank, shows the translated error above the form', async () => {
    const user = userEvent.setup();
    mocks.login.mockRejectedValue(new ApiError('error.invalidCredentials', 'client', 401, {}));
    render(
      <ConsoleHarness path="/login">
        <LoginPage />
      </ConsoleHarness>,
    );
    const submit = screen.getByTestId('login-submit');
    expect(screen.getByTestId('login-logo')).toHaveTextContent('Forja');
    expect(submit).toBeDisabled();
    await user.type(screen.getByTestId('login-username'), 'admin');
    await user.type(screen.getByTestId('login-password'), '   ');
    expect(submit).toBeDisabled();
    await user.type(screen.getByTestId('login-password'), 'x');
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('Credenciales inválidas');
    expect(mocks.login).toHaveBeenCalledWith('admin', '   x');
  });

  it('shows the recovery link and hides registration as the settings say; goes to the redirect on success', async () => {
    const user = userEvent.setup();
    mocks.login.mockResolvedValue({ id: '1', username: 'admin' });
    render(
      <ConsoleHarness path="/login?redirect=%2Fdone" pattern="/login">
        <LoginPage />
      </ConsoleHarness>,
    );
    expect(await screen.findByTestId('link-recovery')).toBeInTheDocument();
    expect(screen.queryByTestId('link-registration')).toBeNull();
    await user.type(screen.getByTestId('login-username'), 'admin');
    await user.type(screen.getByTestId('login-password'), 'secret');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('done page')).toBeInTheDocument();
  });
});

describe('password change page', () => {
  it('enables the button only when current and new are set and new equals confirmation', async () => {
    const user = userEvent.setup();
    mocks.changePassword.mockRejectedValue(new ApiError('error.validation', 'validation', 400, { currentPassword: ['validation.password.different'] }));
    render(
      <ConsoleHarness>
        <PasswordChangePage />
      </ConsoleHarness>,
    );
    const submit = screen.getByTestId('password-submit');
    await user.type(screen.getByTestId('password-currentPassword'), 'Old-pass1');
    await user.type(screen.getByTestId('password-newPassword'), 'New-pass1');
    expect(submit).toBeDisabled();
    await user.type(screen.getByTestId('password-confirmPassword'), 'New-pass2');
    expect(submit).toBeDisabled();
    expect(screen.getByText('Las contraseñas no coinciden')).toBeInTheDocument();
    await user.clear(screen.getByTestId('password-confirmPassword'));
    await user.type(screen.getByTestId('password-confirmPassword'), 'New-pass1');
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('Error de validación');
    expect(screen.getByText('La nueva contraseña debe ser distinta de la actual')).toBeInTheDocument();
    expect(mocks.changePassword).toHaveBeenCalledWith('Old-pass1', 'New-pass1');
  });
});

describe('recovery screens', () => {
  it('request: disabled until the e-mail is valid, then a success message', async () => {
    const user = userEvent.setup();
    mocks.recoveryRequest.mockResolvedValue(true);
    render(
      <ConsoleHarness>
        <RecoveryRequestPage />
      </ConsoleHarness>,
    );
    const submit = screen.getByTestId('recovery-submit');
    await user.type(screen.getByTestId('recovery-email'), 'ana@');
    expect(submit).toBeDisabled();
    expect(screen.getByText('Correo electrónico no válido')).toBeInTheDocument();
    await user.type(screen.getByTestId('recovery-email'), 'example.com');
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(await screen.findByTestId('form-success')).toBeInTheDocument();
    expect(mocks.recoveryRequest).toHaveBeenCalledWith('ana@example.com');
  });

  it('complete: the code from the path is read-only', () => {
    render(
      <ConsoleHarness path="/password/recovery/complete/ABC123" pattern="/password/recovery/complete/:code">
        <RecoveryCompletePage />
      </ConsoleHarness>,
    );
    const code = screen.getByTestId('recovery-code');
    expect(code).toHaveValue('ABC123');
    expect(code).toHaveAttribute('readonly');
    expect(screen.getByTestId('recovery-complete-submit')).toBeDisabled();
  });
});

describe('admin password dialog', () => {
  it('shows the username, blocks mismatches, then offers only Close', async () => {
    const user = userEvent.setup();
    mocks.adminChangePassword.mockResolvedValue(true);
    render(
      <ConsoleHarness>
        <AdminPasswordDialog />
      </ConsoleHarness>,
    );
    passwordDialog.open({ id: 'u7', username: 'maria' });
    expect(await screen.findByTestId('password-dialog-username')).toHaveTextContent('maria');
    await user.type(screen.getByTestId('admin-new-password'), 'Secret-123');
    await user.type(screen.getByTestId('admin-confirm-password'), 'Secret-124');
    await user.click(screen.getByTestId('admin-password-submit'));
    expect(mocks.adminChangePassword).not.toHaveBeenCalled();
    await user.clear(screen.getByTestId('admin-confirm-password'));
    await user.type(screen.getByTestId('admin-confirm-password'), 'Secret-123');
    await user.click(screen.getByTestId('admin-password-submit'));
    await waitFor(() => expect(mocks.adminChangePassword).toHaveBeenCalledWith('u7', 'Secret-123'));
    expect(await screen.findByTestId('password-dialog-success')).toBeInTheDocument();
    expect(screen.queryByTestId('admin-password-submit')).toBeNull();
    expect(screen.getByRole('button', { name: 'Cerrar' })).toBeInTheDocument();
    passwordDialog.close();
  });
});
