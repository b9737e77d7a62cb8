import { OAuth2Client } from 'google-auth-library';

export interface GoogleIdentity {
  email: string;
  name: string | null;
  picture: string | null;
}

export type GoogleVerifier = (credential: string) => Promise<GoogleIdentity>;

export class GoogleLoginError extends Error {}

/**
 * Verifies a Google ID token against the configured client id. `certificates` lets tests (and
 * air-gapped deployments) supply the signing certificates instead of fetching Google's.
 */
export function createGoogleVerifier(clientId: string, certificates?: Record<string, string>): GoogleVerifier {
  const client = new OAuth2Client({ clientId });
  return async (credential) => {
    let payload;
    try {
      if (certificates) {
        const ticket = await client.verifySignedJwtWithCertsAsync(credential, certificates, clientId, ['accounts.google.com', 'https://accounts.google.com']);
        payload = ticket.getPayload();
      } else {
        const ticket = await client.verifyIdToken({ idToken: credential, audience: clientId });
        payload = ticket.getPayload();
      }
    } catch (error) {
      throw new GoogleLoginError(`Google credential rejected: ${(error as Error).message}`);
    }
    if (!payload?.email || payload.email_verified === false) throw new GoogleLoginError('Google credential has no verified e-mail');
    return { email: payload.email.toLowerCase(), name: payload.name ?? null, picture: payload.picture ?? null };
  };
}
