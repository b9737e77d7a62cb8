import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EntityModelMap } from '../../generator/model/entity-model.ts';
import type { EntityService } from '../entities/entity-service.ts';
import { routePermission } from '../entities/route-permission.ts';
import { authenticationError, type Enforce } from '../http/authorize-route.ts';
import { HttpError } from '../http/http-error.ts';
import { nulByteError, nulBytePaths } from '../http/reject-nul-bytes.ts';
import { currentUserOf } from '../identity/auth-routes.ts';
import { createDirectory } from '../identity/directory-routes.ts';
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

export interface IdentityResolverDeps {
  app: FastifyInstance;
  service: EntityService;
  entities: EntityModelMap;
  enforce: Enforce;
  maxUploadBytes: number;
}

/**
 * Lookups and the API-key create call the identity code and the entity service directly, with
 * the caller's context. Sign-in, password and upload operations still run their REST route
 * in-process (forward-to-rest.ts): their per-route rate limits (login attempts per address) and
 * multipart handling live on those routes, and a direct call would count attempts apart.
 */
export function identityResolvers(deps: IdentityResolverDeps): { Query: Record<string, Resolver>; Mutation: Record<string, Resolver> } {
  const { app, service, entities, enforce, maxUploadBytes } = deps;
  const directory = createDirectory({ service, entities });
  const forward = (method: 'GET' | 'POST', url: (args: Record<string, unknown>) => string, payload?: (args: Record<string, unknown>) => unknown): Resolver =>
    (_root, args, { request }) => resolving(() => forwardToRest(app, request, { method, url: url(args), payload: payload?.(args) }));
  const signedIn = (work: (request: FastifyRequest, args: Record<string, unknown>) => unknown): Resolver =>
    (_root, args, { request }) => resolving(async () => {
      if (request.context.userId === null) throw authenticationError(request.context);
      return work(request, args);
    });
  const me = (request: FastifyRequest) => currentUserOf(service, request.context.userId!);
  return {
    Query: {
      me: signedIn(me),
      permissions: signedIn(() => directory.permissions()),
      rolesAll: signedIn((request) => directory.rolesAll(request.context)),
      tenantsAll: signedIn((request) => directory.tenantsAll(request.context)),
      settings: () => resolving(async () => {
        throw new HttpError(501, 'Not implemented', { i18nMessage: 'error.notImplemented' });
      }),
    },
    Mutation: {
      login: forward('POST', () => '/api/auth/login', ({ username, password }) => ({ username, password })),
      passwordChange: forward('POST', () => '/api/users/password/change', ({ currentPassword, newPassword }) => ({ currentPassword, newPassword })),
      userPasswordChange: forward('POST', ({ userId }) => `/api/users/password/change/${encodeURIComponent(String(userId))}`, ({ newPassword }) => ({ newPassword })),
      googleLogin: forward('POST', () => '/api/google/login', ({ credential }) => ({ credential })),
      // The generic create: the secret comes from the userApiKey beforeInsert hook (api-key-routes.ts).
      userApiKeyCreateWithSecret: (_root, args, { request }) => resolving(async () => {
        await enforce(request, routePermission(entities.userApiKey, 'create'));
        const nul = nulBytePaths(args);
        if (nul.length > 0) throw nulByteError(nul);
        return service.create('userApiKey', request.context, { ...(args.data as object) });
      }),
      avatar: (_root, args, { request }) => resolving(async () => {
        await forwardToRest(app, request, { method: 'POST', url: '/api/users/avatar', payload: await readUpload(args.file as Upload, maxUploadBytes) });
        return me(request);
      }),
      uploadFile: (_root, args, { request }) => resolving(async () => {
        const dir = args.dir === undefined || args.dir === null ? 'files' : String(args.dir);
        return forwardToRest(app, request, { method: 'POST', url: `/api/file/${encodeURIComponent(dir)}`, payload: await readUpload(args.file as Upload, maxUploadBytes) });
      }),
    },
  };
}
