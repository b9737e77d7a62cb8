import { GoogleLogin, GoogleOAuthProvider } from '@react-oauth/google';
import { useSessionState } from '../session/session.ts';
import { emitSessionEvent } from '../session/session-events.ts';

/** Google's button; the credential goes to POST /api/google/login (session.loginWithGoogle). */
export default function GoogleSignIn({ clientId, onCredential, onFailure }: { clientId: string; onCredential: (credential: string) => void; onFailure: () => void }) {
  const { darkMode } = useSessionState();
  return (
    <GoogleOAuthProvider clientId={clientId}>
      <GoogleLogin
        theme={darkMode ? 'filled_black' : 'outline'}
        onSuccess={(response) => {
          if (response.credential) onCredential(response.credential);
          else {
            console.error('Error en el login');
            emitSessionEvent('login-failed');
            onFailure();
          }
        }}
        onError={() => {
          console.error('Error en el login');
          emitSessionEvent('login-failed');
          onFailure();
        }}
      />
    </GoogleOAuthProvider>
  );
}
