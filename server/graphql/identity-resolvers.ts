import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/http-error.ts';
import { forwardToRest } from './forward-to-rest.ts';
import { resolving } from './graphql-errors.ts';
import type { ResolverContext } from './entity-resolvers.ts';

/** Hand-written part of the schema: identity, permissions, uploads (spec §7). */
export const identityTypeDefs = `
type AccessToken { accessToken: String! }
type MeRole { id: ID! name: String permissions: [String!]! }
type MeTenant { id: ID! name: String }
type Me {
  id: ID!
  _id: ID!
  username: String
  name: String
  email: String
  phone: String
  role: MeRole
  tenant: MeTenant
  avatar: String
}
"""An API key as created: the secret is returned once, here and never again."""
type CreatedUserApiKey {
  _id: ID!
  name: String
  secret: String!
  ipv4: [String!]
  ipv6: [String!]
}
input UserApiKeyCreateInput { name: String! ipv4: [String!] ipv6: [String!] user: ID }

extend type Query {
  me: Me!
  permissions: [String!]!
  rolesAll: [Role!]!
  tenantsAll: [Tenant!]!
  """Settings are not available over GraphQL (spec §1): always fails with 'Not implemented'."""
  settings: [JSON!]
}

extend type Mutation {
  login(username: String!, password: String!): AccessToken!
  passwordChange(currentPassword: String!, newPassword: String!): Boolean!
  userPasswordChange(userId: ID!, newPassword: String!): Boolean!
  googleLogin(credential: String!): AccessToken!
  userApiKeyCreateWithSecret(data: UserApiKeyCreateInput!): CreatedUserApiKey!
  avatar(file: Upload!): Me!
  uploadFile(file: Upload!, dir: String): UploadedFile!
}
`;

interface Upload {
  filename: string;
  mimetype: string;
  createReadStream(): NodeJS.ReadableStream;
}

/** Reads an uploaded stream into memory, refusing more than the upload limit (413 like REST). */
async function readUpload(upload: Promise<Upload> | Upload, maxBytes: number): Promise<FormData> {
  const file = await upload;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file.createReadStream()) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new HttpError(413, `The file is larger than ${maxBytes} bytes`, { i18nMessage: 'error.fileTooLarge' });
    chunks.push(chunk as Buffer);
  }
  const form = new FormData();
  form.append('file', new Blob([Buffer.concat(chunks)], { type: file.mimetype }), file.filename);
  return form;
}

type Resolver = (root: unknown, args: Record<string, unknown>, context: ResolverContext) => Promise<unknown>;

export function identityResolvers(app: FastifyInstance, maxUploadBytes: number): { Query: Record<string, Resolver>; Mutation: Record<string, Resolver> } {
  const forward = (method: 'GET' | 'POST', url: (args: Record<string, unknown>) => string, payload?: (args: Record<string, unknown>) => unknown): Resolver =>
    (_root, args, { request }) => resolving(() => forwardToRest(app, request, { method, url: url(args), payload: payload?.(args) }));
  return {
    Query: {
      me: forward('GET', () => '/api/auth/me'),
      permissions: forward('GET', () => '/api/permissions'),
      rolesAll: forward('GET', () => '/api/roles/all'),
      tenantsAll: forward('GET', () => '/api/tenants/all'),
      settings: () => resolving(async () => {
        throw new HttpError(501, 'Not implemented', { i18nMessage: 'error.notImplemented' });
      }),
    },
    Mutation: {
      login: forward('POST', () => '/api/auth/login', ({ username, password }) => ({ username, password })),
      passwordChange: forward('POST', () => '/api/users/password/change', ({ currentPassword, newPassword }) => ({ currentPassword, newPassword })),
      userPasswordChange: forward('POST', ({ userId }) => `/api/users/password/change/${encodeURIComponent(String(userId))}`, ({ newPassword }) => ({ newPassword })),
      googleLogin: forward('POST', () => '/api/google/login', ({ credential }) => ({ credential })),
      userApiKeyCreateWithSecret: forward('POST', () => '/api/user-api-keys', ({ data }) => ({ ...(data as object) })),
      avatar: (_root, args, { request }) => resolving(async () => {
        await forwardToRest(app, request, { method: 'POST', url: '/api/users/avatar', payload: await readUpload(args.file as Upload, maxUploadBytes) });
        return forwardToRest(app, request, { method: 'GET', url: '/api/auth/me' });
      }),
      uploadFile: (_root, args, { request }) => resolving(async () => {
        const dir = args.dir === undefined || args.dir === null ? 'files' : String(args.dir);
        return forwardToRest(app, request, { method: 'POST', url: `/api/file/${encodeURIComponent(dir)}`, payload: await readUpload(args.file as Upload, maxUploadBytes) });
      }),
    },
  };
}
