import type { FieldType } from '../../contract/model/entity-model.ts';
import { hashPassword } from '../identity/password-hasher.ts';

/** Turns the value of a secret field into what is stored (it is never read back by the API). */
export type SecretEncoder = (value: string) => Promise<string>;

/**
 * Secret fields by type. Passwords are stored as argon2id hashes, never as sent: the generic
 * user CRUD must not be a way to store plain passwords. Other secret fields (API-key secrets)
 * are readonly for the API and written by their own services, so they need no encoder here.
 */
export const SECRET_ENCODERS: Partial<Record<FieldType, SecretEncoder>> = {
  password: hashPassword,
};
