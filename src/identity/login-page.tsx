import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Center, Divider, Group, PasswordInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { IconLogin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { session, sessionStore, useIsAuthenticated, useSessionState } from '../session/session.ts';
import { safeRedirectTarget } from '../app/guard.ts';
import { loadAllTexts } from '../app/i18n.ts';
import { canSubmitLogin } from './form-rules.ts';
import { toFormFailure } from './server-errors.ts';
import { ErrorAlert } from './error-alert.tsx';
import { IdentityCard } from './identity-card.tsx';
import { usePublicOptions } from './use-public-options.ts';
import { signOutReason, type SignOutReason } from '../session/sign-out-reason.ts';

// The Google SDK is only downloaded when a client id is configured.
const GoogleSignIn = lazy(() => import('./google-sign-in.tsx'));
// Shown only to a visitor already signed in: not part of the sign-in form's code (entry chunk).
// It arrives with the console's texts: the sign-in page has only the boot texts, and the card
// showed its labels as raw keys ("profile.email:") without them (issue 27).
const ProfileCard = lazy(() => Promise.all([import('./profile-card.tsx'), loadAllTexts()]).then(([module]) => ({ default: module.ProfileCard })));

/** docs/product-rules.md#screens /login: logo, credentials, links, Google, dark-mode switch; the profile card when signed in. */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const authenticated = useIsAuthenticated();
  const { darkMode } = useSessionState();
  const options = usePublicOptions();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  // docs/product-rules.md#states: the error clears only when replaced by a new error.
  const [error, setError] = useState<string | null>(null);
  const target = safeRedirectTarget(params.get('redirect'));
  const usernameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  // The page is prerendered (main.tsx hydrates it): what the visitor typed, or a password manager
  // filled in, before the scripts ran is in the inputs but not in this state. Taken over before the
  // first paint after hydration, since the next render would otherwise write the empty state back.
  useLayoutEffect(() => {
    if (usernameInput.current?.value) setUsername(usernameInput.current.value);
    if (passwordInput.current?.value) setPassword(passwordInput.current.value);
  }, []);
  // Signed out by the console (the session expired): say so. Read after hydration, since the
  // prerendered page cannot know it.
  const [signedOutBecause, setSignedOutBecause] = useState<SignOutReason | null>(null);
  useEffect(() => setSignedOutBecause(signOutReason()), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmitLogin(username, password) || submitting) return;
    setSubmitting(true);
    try {
      await session.login(username, password);
      navigate(target, { replace: true });
    } catch (failure) {
      setError(toFormFailure(failure).message);
      setSubmitting(false);
    }
  }

  const darkSwitch = (
    <Switch
      checked={darkMode}
      onChange={(event) => sessionStore.setDarkMode(event.currentTarget.checked)}
      label={t('login.darkMode')}
      data-testid="login-dark-mode"
    />
  );

  if (authenticated) {
    return (
      <Center py="xl">
        <Stack align="center" gap="md" w="100%" maw={420}>
          <Suspense fallback={null}>
            <ProfileCard />
          </Suspense>
          <Group>
            <Button component={Link} to={target}>
              {t('login.continue')}
            </Button>
          </Group>
          {darkSwitch}
        </Stack>
      </Center>
    );
  }

  return (
    <IdentityCard>
      <Title order={1} ta="center" data-testid="login-logo" style={{ letterSpacing: 1 }}>
        {t('app.title')}
      </Title>
      <Text c="dimmed" ta="center">
        {t('login.subtitle')}
      </Text>
      {signedOutBecause === 'expired' && !error && (
        <Alert color="yellow" variant="light" role="status" data-testid="login-session-expired">
          {t('login.sessionExpired')}
        </Alert>
      )}
      <ErrorAlert message={error} />
      <form onSubmit={(event) => void submit(event)}>
        <Stack gap="sm">
          <TextInput
            label={t('login.username')}
            value={username}
            onChange={(event) => setUsername(event.currentTarget.value)}
            autoComplete="username"
            ref={usernameInput}
            data-testid="login-username"
            autoFocus
          />
          <PasswordInput
            label={t('login.password')}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            autoComplete="current-password"
            ref={passwordInput}
            data-testid="login-password"
            visibilityToggleButtonProps={{ 'aria-label': t('login.togglePassword') }}
          />
          <Button type="submit" leftSection={<IconLogin size={18} />} disabled={!canSubmitLogin(username, password)} loading={submitting} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
      {(options.recovery || options.registration) && (
        <Group justify="space-between">
          {options.recovery ? (
            <Anchor component={Link} to="/password/recovery/request" size="sm" data-testid="link-recovery">
              {t('login.forgotPassword')}
            </Anchor>
          ) : (
            <span />
          )}
          {options.registration && (
            <Anchor component={Link} to="/registration" size="sm" data-testid="link-registration">
              {t('login.register')}
            </Anchor>
          )}
        </Group>
      )}
      {options.googleClientId && (
        <>
          <Divider label={t('login.or')} labelPosition="center" />
          <Center>
            <Suspense fallback={null}>
              <GoogleSignIn
                clientId={options.googleClientId}
                onCredential={async (credential) => {
                  try {
                    await session.loginWithGoogle(credential);
                    navigate(target, { replace: true });
                  } catch (failure) {
                    setError(toFormFailure(failure).message);
                  }
                }}
                onFailure={() => setError('login.googleFailed')}
              />
            </Suspense>
          </Center>
        </>
      )}
      <Center>{darkSwitch}</Center>
    </IdentityCard>
  );
}
